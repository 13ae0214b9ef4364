// User-defined ops (what MPI_User_function sees: the program's datatype handle, the left
// operand first) and predefined ops on derived datatypes (element-wise over the blocks,
// gaps untouched; mixed structs refused).
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "mpi/core/error.h"
#include "mpi/datatype/constructors.h"
#include "mpi/datatype/predefined.h"
#include "mpi/op/op.h"
#include "mpi/op/predefined.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

struct Seen {
  int calls = 0;
  int length = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};
Seen seen;

// Not commutative: inout = in * 10 + inout shows which operand came first.
void digits(void* in, void* inout, int* len, MPI_Datatype* datatype) {
  ++seen.calls;
  seen.length = *len;
  seen.type = *datatype;
  const int* a = static_cast<int*>(in);
  int* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = a[i] * 10 + b[i];
}

// On a vector type of ints: combines the first int of each element only.
void firstOfVector(void* in, void* inout, int* len, MPI_Datatype*) {
  int* a = static_cast<int*>(in);
  int* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) b[3 * i] += a[3 * i];
}

}  // namespace

TEST_CASE("a user op gets the left operand first, the count and the type handle") {
  UserOp user(&digits, false);
  CHECK_FALSE(user.commutative());
  CHECK_FALSE(user.predefined());
  std::vector<int> in{1, 2, 3}, inout{4, 5, 6};
  seen = {};
  user.apply(in.data(), inout.data(), 3, basic(MPI_INT));
  CHECK(inout == std::vector<int>{14, 25, 36});
  CHECK(seen.calls == 1);
  CHECK(seen.length == 3);
  CHECK(seen.type == MPI_INT);

  SECTION("derived types arrive as the program's handle") {
    Owned pair(types::contiguous(2, basic(MPI_INT)));
    std::vector<int> a{1, 1, 1, 1}, b{2, 2, 2, 2};
    seen = {};
    user.apply(a.data(), b.data(), 2, *pair);
    CHECK(seen.type == pair->handle());
    CHECK(seen.length == 2);
  }
}

TEST_CASE("a user op on packed data of a non-contiguous type sees user layout") {
  UserOp user(&firstOfVector, true);
  CHECK(user.commutative());
  Owned strided(types::vector(1, 1, 1, basic(MPI_INT)));
  Owned spaced(types::resized(*strided, 0, 3 * sizeof(int)));
  REQUIRE_FALSE(spaced->contiguous());
  std::vector<int> in{1, 2, 3}, inout{10, 20, 30};  // packed: 3 elements of one int each
  user.applyPacked(in.data(), inout.data(), 3, *spaced);
  CHECK(inout == std::vector<int>{11, 22, 33});
}

TEST_CASE("user ops are reference counted") {
  auto* user = new UserOp(&digits, true);
  MPI_Op handle = user->handle();
  user->retain();   // a pending reduction
  user->release();  // MPI_Op_free
  CHECK(opOf(handle) == user);
  user->release();
}

TEST_CASE("predefined ops reduce derived types of one basic type over their blocks only") {
  Owned everyOther(types::vector(3, 1, 2, basic(MPI_DOUBLE)));
  std::vector<double> in{1, 100, 2, 100, 3}, inout{10, -1, 20, -1, 30};
  op(MPI_SUM).apply(in.data(), inout.data(), 1, *everyOther);
  CHECK(inout == std::vector<double>{11, -1, 22, -1, 33});

  SECTION("count > 1 of a resized type") {
    Owned spaced(types::resized(basic(MPI_INT), 0, 2 * sizeof(int)));
    std::vector<int> a{1, 0, 2, 0, 3, 0}, b{5, 7, 5, 7, 5, 7};
    op(MPI_MAX).apply(a.data(), b.data(), 3, *spaced);
    CHECK(b == std::vector<int>{5, 7, 5, 7, 5, 7});
    op(MPI_PROD).apply(a.data(), b.data(), 3, *spaced);
    CHECK(b == std::vector<int>{5, 7, 10, 7, 15, 7});
  }
  SECTION("packed layout of the same type") {
    std::vector<double> a{1, 2, 3}, b{4, 5, 6};
    op(MPI_SUM).applyPacked(a.data(), b.data(), 1, *everyOther);
    CHECK(b == std::vector<double>{5, 7, 9});
  }
  SECTION("a contiguous type reduces as one loop") {
    Owned four(types::contiguous(4, basic(MPI_INT)));
    CHECK(four->denseRun());
    std::vector<int> a(8, 1), b(8, 2);
    op(MPI_BXOR).apply(a.data(), b.data(), 2, *four);
    CHECK(b == std::vector<int>(8, 3));
  }
}

TEST_CASE("a struct mixing basic types is refused by arithmetic ops but replaced") {
  struct S {
    int i;
    double d;
  };
  const int lengths[] = {1, 1};
  const MPI_Aint at[] = {offsetof(S, i), offsetof(S, d)};
  Datatype* kinds[] = {&basic(MPI_INT), &basic(MPI_DOUBLE)};
  Owned mixed(types::structType(2, lengths, at, kinds));
  S a{1, 2.0}, b{3, 4.0};
  try {
    op(MPI_SUM).apply(&a, &b, 1, *mixed);
    FAIL("MPI_SUM on a mixed struct must fail");
  } catch (const MpiError& error) {
    CHECK(error.code() == MPI_ERR_OP);
    CHECK(std::string(error.what()) == "MPI_SUM is not defined for a derived datatype mixing basic types");
  }
  op(MPI_REPLACE).apply(&a, &b, 1, *mixed);
  CHECK(b.i == 1);
  CHECK(b.d == 2.0);
  const S other{9, 9.0};
  op(MPI_NO_OP).apply(&other, &b, 1, *mixed);
  CHECK(b.i == 1);
}
