// The passive-target lock manager on its own: who holds the lock, who waits, who is granted
// on release, and in which order.
#include <mpi.h>

#include <catch2/catch.hpp>

#include "mpi/core/error.h"
#include "mpi/rma/lock_manager.h"

using zmpi::mpi::MpiError;
using zmpi::mpi::rma::LockManager;
using Type = LockManager::Type;
using Granted = std::vector<int>;

TEST_CASE("shared locks are granted together; an exclusive one waits for all of them", "[rma][lock]") {
  LockManager locks;
  CHECK(locks.request(0, Type::Shared) == Granted{0});
  CHECK(locks.request(1, Type::Shared) == Granted{1});
  CHECK(locks.sharedHolders() == 2);
  CHECK(locks.request(2, Type::Exclusive).empty());
  CHECK(locks.release(0, Type::Shared).empty());
  CHECK(locks.release(1, Type::Shared) == Granted{2});
  CHECK(locks.exclusivelyHeld());
  CHECK(locks.waiting() == 0);
}

TEST_CASE("an exclusive holder excludes everyone; waiters are granted in arrival order", "[rma][lock]") {
  LockManager locks;
  CHECK(locks.request(3, Type::Exclusive) == Granted{3});
  CHECK(locks.request(1, Type::Exclusive).empty());
  CHECK(locks.request(0, Type::Shared).empty());
  CHECK(locks.request(2, Type::Shared).empty());
  CHECK(locks.waiting() == 3);
  CHECK(locks.release(3, Type::Exclusive) == Granted{1});
  // The two readers queued behind the writer are granted together once it leaves.
  CHECK(locks.release(1, Type::Exclusive) == Granted{0, 2});
  CHECK(locks.sharedHolders() == 2);
}

TEST_CASE("a reader arriving behind a waiting writer queues, so writers are not starved", "[rma][lock]") {
  LockManager locks;
  CHECK(locks.request(0, Type::Shared) == Granted{0});
  CHECK(locks.request(1, Type::Exclusive).empty());
  CHECK(locks.request(2, Type::Shared).empty());  // could share with 0, but 1 came first
  CHECK(locks.release(0, Type::Shared) == Granted{1});
  CHECK(locks.release(1, Type::Exclusive) == Granted{2});
}

TEST_CASE("a rank may hold the lock of a window shared several times over", "[rma][lock]") {
  LockManager locks;
  CHECK(locks.request(5, Type::Shared) == Granted{5});
  CHECK(locks.request(5, Type::Shared) == Granted{5});
  CHECK(locks.release(5, Type::Shared).empty());
  CHECK(locks.sharedHolders() == 1);
  CHECK(locks.release(5, Type::Shared).empty());
  CHECK(locks.sharedHolders() == 0);
}

TEST_CASE("releasing a lock one does not hold is MPI_ERR_RMA_SYNC", "[rma][lock]") {
  LockManager locks;
  CHECK(locks.request(0, Type::Exclusive) == Granted{0});
  try {
    locks.release(1, Type::Exclusive);
    FAIL("no error");
  } catch (const MpiError& error) {
    CHECK(error.code() == MPI_ERR_RMA_SYNC);
  }
  CHECK_THROWS_AS(locks.release(0, Type::Shared), MpiError);
  CHECK(locks.exclusivelyHeld());
}
