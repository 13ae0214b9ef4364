// MAXLOC and MINLOC on every pair type, in user-memory layout (padding included) and in
// packed layout, with MPI's tie rule: equal values keep the lower index.
#include <catch2/catch.hpp>
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

constexpr std::size_t kLocPairs = 23;

template <typename V, typename I>
struct Pair {
  V value;
  I index;
};

template <typename V, typename I>
Pair<V, I> reference(Pair<V, I> a, Pair<V, I> b, bool isMax) {
  const bool better = isMax ? a.value > b.value : a.value < b.value;
  if (better) return a;
  if (a.value == b.value) return {a.value, a.index < b.index ? a.index : b.index};
  return b;
}

// Values repeat every 4 elements, so about a quarter of the pairs tie.
template <typename V, typename I>
void operands(std::vector<Pair<V, I>>& in, std::vector<Pair<V, I>>& inout) {
  for (std::size_t k = 0; k < kLocPairs; ++k) {
    in.push_back({static_cast<V>(static_cast<int>(k % 4) - 1), static_cast<I>(k)});
    inout.push_back({static_cast<V>(static_cast<int>((k * 3) % 4) - 1), static_cast<I>(kLocPairs - k)});
  }
}

template <typename V, typename I>
void checkLoc(MPI_Datatype handle) {
  for (const bool isMax : {true, false}) {
    std::vector<Pair<V, I>> in, inout, expected;
    operands(in, inout);
    for (std::size_t k = 0; k < kLocPairs; ++k) expected.push_back(reference(in[k], inout[k], isMax));
    const Op& o = op(isMax ? MPI_MAXLOC : MPI_MINLOC);
    const Datatype& t = basic(handle);
    INFO(o.name << " on " << t.name);

    std::vector<Pair<V, I>> memory = inout;
    o.apply(in.data(), memory.data(), kLocPairs, t);
    int wrong = 0;
    for (std::size_t k = 0; k < kLocPairs; ++k) {
      wrong += memory[k].value != expected[k].value || memory[k].index != expected[k].index;
    }
    CHECK(wrong == 0);

    // Packed: pack both operands, reduce, unpack, compare.
    std::vector<char> packedIn(kLocPairs * t.size()), packedInout(kLocPairs * t.size());
    t.pack(in.data(), kLocPairs, packedIn.data());
    t.pack(inout.data(), kLocPairs, packedInout.data());
    o.applyPacked(packedIn.data(), packedInout.data(), kLocPairs, t);
    std::vector<Pair<V, I>> unpacked(kLocPairs);
    t.unpack(packedInout.data(), packedInout.size(), unpacked.data());
    wrong = 0;
    for (std::size_t k = 0; k < kLocPairs; ++k) {
      wrong += unpacked[k].value != expected[k].value || unpacked[k].index != expected[k].index;
    }
    CHECK(wrong == 0);
  }
}

}  // namespace

TEST_CASE("MAXLOC/MINLOC on the C pair types") {
  checkLoc<float, int>(MPI_FLOAT_INT);
  checkLoc<double, int>(MPI_DOUBLE_INT);
  checkLoc<long, int>(MPI_LONG_INT);
  checkLoc<int, int>(MPI_2INT);
  checkLoc<short, int>(MPI_SHORT_INT);
  checkLoc<long double, int>(MPI_LONG_DOUBLE_INT);
}

TEST_CASE("MAXLOC/MINLOC on the Fortran pair types") {
  checkLoc<int, int>(MPI_2INTEGER);
  checkLoc<float, float>(MPI_2REAL);
  checkLoc<double, double>(MPI_2DOUBLE_PRECISION);
}

TEST_CASE("ties keep the lower index whichever operand holds it") {
  Pair<double, int> in{3.0, 9}, inout{3.0, 4};
  op(MPI_MAXLOC).apply(&in, &inout, 1, basic(MPI_DOUBLE_INT));
  CHECK(inout.index == 4);
  in = {3.0, 2};
  op(MPI_MINLOC).apply(&in, &inout, 1, basic(MPI_DOUBLE_INT));
  CHECK(inout.index == 2);
  CHECK(inout.value == 3.0);
}

TEST_CASE("a derived type of pairs reduces pair by pair") {
  Datatype* two = types::vector(2, 1, 2, *datatypeOf(MPI_SHORT_INT));  // pairs 0 and 2
  std::vector<Pair<short, int>> in{{5, 0}, {99, 99}, {1, 2}}, inout{{4, 1}, {-7, -7}, {1, 1}};
  op(MPI_MAXLOC).apply(in.data(), inout.data(), 1, *two);
  CHECK(inout[0].value == 5);
  CHECK(inout[0].index == 0);
  CHECK(inout[1].value == -7);  // the gap is left alone
  CHECK(inout[2].index == 1);
  two->release();
}

TEST_CASE("MAXLOC does not apply to plain types") {
  int a = 1, b = 2;
  CHECK_THROWS_AS(op(MPI_MAXLOC).apply(&a, &b, 1, basic(MPI_INT)), MpiError);
}
