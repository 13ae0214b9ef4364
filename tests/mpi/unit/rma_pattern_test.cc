// One-sided communication in mock mode: exactly which active messages a put, get,
// accumulate, flush, lock or PSCW epoch sends, to whom, in which order.
#include <mpi.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <functional>
#include <latch>
#include <mutex>

#include "error_code_of.h"
#include "locked_check.h"
#include "mock_world.h"
#include "mpi/op/op.h"
#include "mpi/op/predefined.h"
#include "mpi/rma/attach_table.h"
#include "mpi/rma/exchange.h"
#include "mpi/rma/protocol.h"
#include "mpi/rma/window_create.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;
using rma::RmaKind;

namespace {

// The one-sided messages `from` sent, in order (kinds >= 16; window creation and barriers
// are point-to-point traffic and left out).
std::vector<std::pair<int, RmaKind>> rmaSentBy(const MockNetwork& network, int from) {
  std::vector<std::pair<int, RmaKind>> out;
  for (const SentRecord& record : network.sentBy(from)) {
    const auto kind = static_cast<uint16_t>(record.kind);
    if (kind >= rma::kFirstRmaKind) out.emplace_back(record.to, static_cast<RmaKind>(kind));
  }
  return out;
}

using Trace = std::vector<std::pair<int, RmaKind>>;

// Mock worlds on a host each: locks and accumulates travel as messages, as between hosts
// (on one host they go through the window's shared segment, host_locks.h).
std::shared_ptr<MockNetwork> runOnSeparateHosts(int size, const std::function<void(World&)>& body) {
  return runMockWorldsOn(
      size, [](MockNetwork& network) { network.setHostPerRank(true); }, body);
}

}  // namespace

TEST_CASE("a put in a fence epoch is one Put, then one Flush answered by one Reply", "[rma][mock]") {
  auto network = runMockWorlds(2, [](World& world) {
    int memory[4] = {0, 0, 0, 0};
    auto window = rma::createWindow(world.commWorld(), memory, sizeof memory, sizeof(int));
    window->fence(0);
    if (world.rank() == 0) {
      const int values[2] = {7, 8};
      window->put({values, 2, &intType()}, 1, 1, 2, intType());
    }
    window->fence(0);
    if (world.rank() == 1) {
      LOCKED_CHECK(memory[1] == 7);
      LOCKED_CHECK(memory[2] == 8);
    }
    rma::freeWindow(*window);
  });
  CHECK(rmaSentBy(*network, 0) == Trace{{1, RmaKind::Put}, {1, RmaKind::Flush}});
  CHECK(rmaSentBy(*network, 1) == Trace{{0, RmaKind::Reply}});
}

TEST_CASE("a get is one Get answered by one Reply carrying the data, with no flush", "[rma][mock]") {
  auto network = runMockWorlds(2, [](World& world) {
    int memory[3] = {world.rank() * 10, world.rank() * 10 + 1, world.rank() * 10 + 2};
    auto window = rma::createWindow(world.commWorld(), memory, sizeof memory, sizeof(int));
    window->fence(0);
    int got[2] = {-1, -1};
    if (world.rank() == 0) window->get(got, 2, intType(), 1, 1, 2, intType());
    window->fence(0);
    if (world.rank() == 0) {
      LOCKED_CHECK(got[0] == 11);
      LOCKED_CHECK(got[1] == 12);
    }
    rma::freeWindow(*window);
  });
  CHECK(rmaSentBy(*network, 0) == Trace{{1, RmaKind::Get}});
  CHECK(rmaSentBy(*network, 1) == Trace{{0, RmaKind::Reply}});
  for (const SentRecord& record : network->sentBy(1)) {
    if (static_cast<uint16_t>(record.kind) == rma::kindValue(RmaKind::Reply)) LOCKED_CHECK(record.payloadBytes == 8);
  }
}

TEST_CASE("operations on this rank's own window never touch the network", "[rma][mock]") {
  auto network = runMockWorlds(2, [](World& world) {
    int memory[2] = {0, 0};
    auto window = rma::createWindow(world.commWorld(), memory, sizeof memory, sizeof(int));
    window->fence(0);
    const int value = 5;
    window->put({&value, 1, &intType()}, world.rank(), 0, 1, intType());
    int got = 0;
    window->get(&got, 1, intType(), world.rank(), 0, 1, intType());
    LOCKED_CHECK(got == 5);
    window->fence(0);
    rma::freeWindow(*window);
  });
  CHECK(rmaSentBy(*network, 0).empty());
  CHECK(rmaSentBy(*network, 1).empty());
}

TEST_CASE("between hosts, an exclusive lock epoch: LockRequest, LockGranted, operations, Unlock, Reply",
          "[rma][mock]") {
  auto network = runOnSeparateHosts(2, [](World& world) {
    long memory = 100;
    long fetched = 0;
    auto window = rma::createWindow(world.commWorld(), &memory, sizeof memory, sizeof memory);
    if (world.rank() == 0) {
      bindPredefinedDatatypes();
      const Datatype& longType = *datatypeOf(MPI_LONG);
      const long one = 1;
      window->lock(MPI_LOCK_EXCLUSIVE, 1, 0);
      window->accumulate({&one, 1, &longType}, 1, 0, 1, longType, op(MPI_SUM));
      window->getAccumulate({&one, 1, &longType}, &fetched, 1, longType, 1, 0, 1, longType, op(MPI_SUM));
      window->unlock(1);
      LOCKED_CHECK(fetched == 101);
    }
    window->fence(0);  // (no epoch left open; orders the check below after rank 0's unlock)
    if (world.rank() == 1) LOCKED_CHECK(memory == 102);
    rma::freeWindow(*window);
  });
  CHECK(rmaSentBy(*network, 0) ==
        Trace{{1, RmaKind::LockRequest}, {1, RmaKind::Accumulate}, {1, RmaKind::GetAccumulate}, {1, RmaKind::Unlock}});
  CHECK(rmaSentBy(*network, 1) == Trace{{0, RmaKind::LockGranted}, {0, RmaKind::Reply}, {0, RmaKind::Reply}});
}

TEST_CASE("a lock request waits at the target until the holder unlocks", "[rma][mock]") {
  const bool separateHosts = GENERATE(true, false);
  const bool allocated = GENERATE(true, false);
  CAPTURE(separateHosts, allocated);
  std::latch holding(1);
  std::latch asked(1);
  auto run = separateHosts ? runOnSeparateHosts : [](int size, const std::function<void(World&)>& body) {
    return runMockWorlds(size, body);
  };
  run(3, [&](World& world) {
    int own = 0;
    auto window = allocated ? rma::allocateWindow(world.commWorld(), sizeof own, sizeof own)
                            : rma::createWindow(world.commWorld(), &own, sizeof own, sizeof own);
    int& memory = *static_cast<int*>(window->base());
    memory = -1;
    window->fence(0);
    const int value = world.rank();
    if (world.rank() == 1) {
      window->lock(MPI_LOCK_EXCLUSIVE, 0, 0);
      holding.count_down();
      asked.wait();  // rank 2's request is on its way; it cannot be granted while we hold the lock
      window->put({&value, 1, &intType()}, 0, 0, 1, intType());
      window->unlock(0);
    } else if (world.rank() == 2) {
      holding.wait();
      asked.count_down();
      window->lock(MPI_LOCK_EXCLUSIVE, 0, 0);
      int seen = -1;
      window->get(&seen, 1, intType(), 0, 0, 1, intType());
      window->flush(0);
      LOCKED_CHECK(seen == 1);  // granted only after rank 1's put and unlock
      window->unlock(0);
    }
    window->fence(0);
    if (world.rank() == 0) LOCKED_CHECK(memory == 1);
    rma::freeWindow(*window);
  });
}

TEST_CASE("on one host, a lock epoch on the program's memory sends the operations but no lock traffic", "[rma][mock]") {
  auto network = runMockWorlds(2, [](World& world) {
    long memory = 100;
    long fetched = 0;
    auto window = rma::createWindow(world.commWorld(), &memory, sizeof memory, sizeof memory);
    if (world.rank() == 0) {
      bindPredefinedDatatypes();
      const Datatype& longType = *datatypeOf(MPI_LONG);
      const long one = 1;
      window->lock(MPI_LOCK_SHARED, 1, 0);
      window->accumulate({&one, 1, &longType}, 1, 0, 1, longType, op(MPI_SUM));
      window->getAccumulate({&one, 1, &longType}, &fetched, 1, longType, 1, 0, 1, longType, op(MPI_SUM));
      window->unlock(1);
      LOCKED_CHECK(fetched == 101);
    }
    window->fence(0);
    if (world.rank() == 1) LOCKED_CHECK(memory == 102);
    rma::freeWindow(*window);
  });
  // The unlock flushes the accumulate (its Flush answered by a Reply) before the lock goes.
  CHECK(rmaSentBy(*network, 0) == Trace{{1, RmaKind::Accumulate}, {1, RmaKind::GetAccumulate}, {1, RmaKind::Flush}});
  CHECK(rmaSentBy(*network, 1) == Trace{{0, RmaKind::Reply}, {0, RmaKind::Reply}});
}

TEST_CASE(
    "on one host, a lock epoch on allocated memory, or on the program's where the kernel lets ranks reach "
    "each other's, sends no message at all",
    "[rma][mock]") {
  const bool allocated = GENERATE(true, false);
  CAPTURE(allocated);
  auto network = runMockWorldsOn(
      2,
      [&](MockNetwork& network) {
        if (!allocated) network.setSingleCopyPid(static_cast<int>(getpid()));  // the mock ranks' process
      },
      [&](World& world) {
        bindPredefinedDatatypes();
        const Datatype& longType = *datatypeOf(MPI_LONG);
        long own[2] = {0, 0};
        auto window = allocated ? rma::allocateWindow(world.commWorld(), sizeof own, sizeof(long))
                                : rma::createWindow(world.commWorld(), own, sizeof own, sizeof(long));
        long* memory = static_cast<long*>(window->base());
        memory[0] = 100;
        memory[1] = 7;
        window->fence(0);
        if (world.rank() == 0) {
          const long one = 1;
          const long compare = 102;
          const long swapped = 500;
          long fetched = 0;
          long old = 0;
          long seen[2] = {0, 0};
          window->lock(MPI_LOCK_EXCLUSIVE, 1, 0);
          window->accumulate({&one, 1, &longType}, 1, 0, 1, longType, op(MPI_SUM));
          window->getAccumulate({&one, 1, &longType}, &fetched, 1, longType, 1, 0, 1, longType, op(MPI_SUM));
          window->compareAndSwap(&swapped, &compare, &old, longType, 1, 0);
          window->put({&one, 1, &longType}, 1, 1, 1, longType);
          window->get(seen, 2, longType, 1, 0, 2, longType);
          window->unlock(1);
          LOCKED_CHECK(fetched == 101);
          LOCKED_CHECK(old == 102);
          LOCKED_CHECK(seen[0] == 500);
          LOCKED_CHECK(seen[1] == 1);
          const long two = 2;
          window->lockAll(0);
          window->put({&two, 1, &longType}, 1, 1, 1, longType);
          window->flushAll();
          window->unlockAll();
        }
        window->fence(0);
        if (world.rank() == 1) {
          LOCKED_CHECK(memory[0] == 500);
          LOCKED_CHECK(memory[1] == 2);
        }
        rma::freeWindow(*window);
      });
  CHECK(rmaSentBy(*network, 0).empty());
  CHECK(rmaSentBy(*network, 1).empty());
}

TEST_CASE(
    "on one host, a dynamic window's operations inside attached memory send nothing; a target with more "
    "regions than its table lists gets them as messages",
    "[rma][mock]") {
  auto network = runMockWorldsOn(
      2, [](MockNetwork& network) { network.setSingleCopyPid(static_cast<int>(getpid())); },
      [](World& world) {
        bindPredefinedDatatypes();
        const Datatype& longType = *datatypeOf(MPI_LONG);
        long memory[2] = {100, 7};
        std::vector<long> extra(rma::kListedRegions + 1, 0);  // attached one by one, later
        auto window = rma::createDynamicWindow(world.commWorld());
        window->attach(memory, sizeof memory);
        const auto address = reinterpret_cast<MPI_Aint>(memory);
        auto addresses = rma::allgather(world.commWorld(), address);
        const MPI_Aint theirs = addresses[1];
        window->fence(0);
        if (world.rank() == 0) {
          const long one = 1;
          long seen[2] = {0, 0};
          long fetched = 0;
          window->lock(MPI_LOCK_SHARED, 1, 0);
          window->put({&one, 1, &longType}, 1, theirs + static_cast<MPI_Aint>(sizeof(long)), 1, longType);
          window->get(seen, 2, longType, 1, theirs, 2, longType);
          // Beyond the attached bytes: refused here, before anything is sent.
          LOCKED_CHECK(errorCodeOf([&] {
                         window->put({&one, 1, &longType}, 1, theirs + 2 * 8, 1, longType);
                       }) == MPI_ERR_RMA_RANGE);
          window->accumulate({&one, 1, &longType}, 1, theirs, 1, longType, op(MPI_SUM));
          window->getAccumulate({&one, 1, &longType}, &fetched, 1, longType, 1, theirs, 1, longType, op(MPI_SUM));
          window->unlock(1);
          LOCKED_CHECK(seen[0] == 100);
          LOCKED_CHECK(seen[1] == 1);
          LOCKED_CHECK(fetched == 101);
        }
        window->fence(0);
        if (world.rank() == 1) {
          LOCKED_CHECK(memory[0] == 102);
          LOCKED_CHECK(memory[1] == 1);
          for (long& slot : extra) window->attach(&slot, sizeof slot);  // the table overflows
        }
        window->fence(0);
        if (world.rank() == 0) {
          const long two = 2;
          window->lock(MPI_LOCK_SHARED, 1, 0);
          window->put({&two, 1, &longType}, 1, theirs, 1, longType);
          window->accumulate({&two, 1, &longType}, 1, theirs + static_cast<MPI_Aint>(sizeof(long)), 1, longType,
                             op(MPI_SUM));
          window->unlock(1);
        }
        window->fence(0);
        if (world.rank() == 1) {
          LOCKED_CHECK(memory[0] == 2);
          LOCKED_CHECK(memory[1] == 3);
          for (long& slot : extra) window->detach(&slot);
        }
        window->detach(memory);
        rma::freeWindow(*window);
      });
  // Only after the overflow: the put, the accumulate, and the unlock's flush.
  CHECK(rmaSentBy(*network, 0) == Trace{{1, RmaKind::Put}, {1, RmaKind::Accumulate}, {1, RmaKind::Flush}});
}

TEST_CASE("PSCW: Post to each origin, the operations, then Complete to each target", "[rma][mock]") {
  auto network = runMockWorlds(3, [](World& world) {
    int memory = 0;
    auto window = rma::createWindow(world.commWorld(), &memory, sizeof memory, sizeof memory);
    Group* targets = new Group({0});
    Group* origins = new Group({1, 2});
    if (world.rank() == 0) {
      window->post(*origins, 0);
      window->wait();
      LOCKED_CHECK(memory == 3);
    } else {
      const int value = world.rank();
      window->start(*targets, 0);
      window->accumulate({&value, 1, &intType()}, 0, 0, 1, intType(), op(MPI_SUM));
      window->complete();
    }
    targets->release();
    origins->release();
    rma::freeWindow(*window);
  });
  CHECK(rmaSentBy(*network, 0) == Trace{{1, RmaKind::Post}, {2, RmaKind::Post}});
  CHECK(rmaSentBy(*network, 1) == Trace{{0, RmaKind::Accumulate}, {0, RmaKind::Complete}});
  CHECK(rmaSentBy(*network, 2) == Trace{{0, RmaKind::Accumulate}, {0, RmaKind::Complete}});
}
