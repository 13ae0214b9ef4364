// The message pattern of every collective algorithm, pinned in mock mode: who sends to
// whom, in which order, how many bytes, for 4 and 5 ranks (a power of two and not).
#include <catch2/catch.hpp>

#include "coll_harness.h"
#include "mpi/coll/allgather_bruck.h"
#include "mpi/coll/allgather_recursive_doubling.h"
#include "mpi/coll/allgather_ring.h"
#include "mpi/coll/allreduce_rabenseifner.h"
#include "mpi/coll/allreduce_recursive_doubling.h"
#include "mpi/coll/allreduce_ring.h"
#include "mpi/coll/alltoall_pairwise.h"
#include "mpi/coll/barrier.h"
#include "mpi/coll/bcast_binomial.h"
#include "mpi/coll/bcast_scatter_allgather.h"
#include "mpi/coll/gather_binomial.h"
#include "mpi/coll/gather_linear.h"
#include "mpi/coll/reduce_binomial.h"
#include "mpi/coll/reduce_scatter_pairwise.h"
#include "mpi/coll/scan_recursive_doubling.h"
#include "mpi/coll/scatter_binomial.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::coll;
using namespace zmpi::mpi::testing;

namespace {

using Pattern = std::vector<std::vector<Sent>>;  // per rank, in send order

// Runs `build` (which adds one algorithm to the schedule) on p mock ranks and returns what
// each rank sent. Also checks that everything travelled in the collective context.
Pattern patternOf(int p, const std::function<void(Schedule&)>& build) {
  auto network = runRanks(p, [&](World& world) {
    Schedule schedule(world.commWorld());
    build(schedule);
    run(schedule);
  });
  Pattern pattern;
  for (int r = 0; r < p; ++r) {
    pattern.push_back(sentBy(*network, r));
    for (const SentRecord& record : network->sentBy(r)) {
      CHECK(record.envelope.context == 1);  // MPI_COMM_WORLD's collective context, never user traffic's 0
      CHECK(record.kind == MessageKind::Eager);
    }
  }
  return pattern;
}

void expect(const Pattern& got, const Pattern& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t r = 0; r < got.size(); ++r) {
    INFO("rank " << r << " sent " << describe(got[r]) << ", expected " << describe(want[r]));
    CHECK(got[r] == want[r]);
  }
}

// Every rank sends `count` messages of `bytes` to its right neighbour.
Pattern ring(int p, int count, uint64_t bytes) {
  Pattern pattern(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    pattern[static_cast<std::size_t>(r)].assign(static_cast<std::size_t>(count), {(r + 1) % p, bytes});
  return pattern;
}

TestSum sum;
TestMatrixProduct product;

}  // namespace

TEST_CASE("dissemination barrier: rank r signals r + 2^k, one byte per round", "[coll][pattern]") {
  expect(patternOf(4, [](Schedule& s) { barrierDissemination(s); }),
         {{{1, 1}, {2, 1}}, {{2, 1}, {3, 1}}, {{3, 1}, {0, 1}}, {{0, 1}, {1, 1}}});
  expect(patternOf(5, [](Schedule& s) { barrierDissemination(s); }), {{{1, 1}, {2, 1}, {4, 1}},
                                                                      {{2, 1}, {3, 1}, {0, 1}},
                                                                      {{3, 1}, {4, 1}, {1, 1}},
                                                                      {{4, 1}, {0, 1}, {2, 1}},
                                                                      {{0, 1}, {1, 1}, {3, 1}}});
}

TEST_CASE("binomial bcast: largest subtree first, root-relative tree", "[coll][pattern]") {
  auto bcast = [](int root) { return [root](Schedule& s) { bcastBinomial(s, s.scratch(8), 8, root); }; };
  expect(patternOf(4, bcast(0)), {{{2, 8}, {1, 8}}, {}, {{3, 8}}, {}});
  expect(patternOf(5, bcast(0)), {{{4, 8}, {2, 8}, {1, 8}}, {}, {{3, 8}}, {}, {}});
  // Root 2: relative rank v is rank (v + 2) mod 5.
  expect(patternOf(5, bcast(2)), {{}, {}, {{1, 8}, {4, 8}, {3, 8}}, {}, {{0, 8}}});
}

TEST_CASE("scatter-allgather bcast: binomial scatter of p pieces, then a ring", "[coll][pattern]") {
  expect(patternOf(4, [](Schedule& s) { bcastScatterAllgather(s, s.scratch(40), 40, 0); }),
         {{{2, 20}, {1, 10}, {1, 10}, {1, 10}, {1, 10}},
          {{2, 10}, {2, 10}, {2, 10}},
          {{3, 10}, {3, 10}, {3, 10}, {3, 10}},
          {{0, 10}, {0, 10}, {0, 10}}});
  Pattern five = ring(5, 4, 10);
  five[0].insert(five[0].begin(), {{4, 10}, {2, 20}, {1, 10}});
  five[2].insert(five[2].begin(), Sent{3, 10});
  expect(patternOf(5, [](Schedule& s) { bcastScatterAllgather(s, s.scratch(50), 50, 0); }), five);
}

TEST_CASE("binomial reduce: children fold into parents; non-commutative via rank 0", "[coll][pattern]") {
  // Three elements: ints for the sum, 16-byte matrices for the (non-commutative) product.
  auto reduce = [](const Op& op, const Datatype& type, int root) {
    return [&op, &type, root](Schedule& s) {
      const Reduction reduction(op, type, 3);
      char* in = s.scratch(reduction.bytes());
      std::memset(in, 0, reduction.bytes());
      reduceBinomial(s, reduction, in, s.scratch(reduction.bytes()), root);
    };
  };
  expect(patternOf(4, reduce(sum, intType(), 0)), {{}, {{0, 12}}, {{0, 12}}, {{2, 12}}});
  expect(patternOf(5, reduce(sum, intType(), 0)), {{}, {{0, 12}}, {{0, 12}}, {{2, 12}}, {{0, 12}}});
  // Commutative: the tree is rooted at the root (relative rank v = rank - 2 mod 5).
  expect(patternOf(5, reduce(sum, intType(), 2)), {{{4, 12}}, {{2, 12}}, {}, {{2, 12}}, {{2, 12}}});
  // Non-commutative: the tree stays rooted at 0, which forwards the result.
  expect(patternOf(5, reduce(product, matrixType(), 2)), {{{2, 48}}, {{0, 48}}, {{0, 48}}, {{2, 48}}, {{0, 48}}});
}

TEST_CASE("recursive doubling allreduce: partners r XOR 2^k, non-powers of two fold in and out", "[coll][pattern]") {
  auto allreduce = [](Schedule& s) {
    char* acc = s.scratch(16);
    std::memset(acc, 0, 16);
    allreduceRecursiveDoubling(s, Reduction(sum, intType(), 4), acc);
  };
  expect(patternOf(4, allreduce), {{{1, 16}, {2, 16}}, {{0, 16}, {3, 16}}, {{3, 16}, {0, 16}}, {{2, 16}, {1, 16}}});
  // Rank 0 hands its operand to 1 and gets the result back; 1..4 act as ranks 0..3.
  expect(patternOf(5, allreduce),
         {{{1, 16}}, {{2, 16}, {3, 16}, {0, 16}}, {{1, 16}, {4, 16}}, {{4, 16}, {1, 16}}, {{3, 16}, {2, 16}}});
}

TEST_CASE("Rabenseifner allreduce: halving at distance 1, 2, then doubling back", "[coll][pattern]") {
  auto allreduce = [](Schedule& s) {
    char* acc = s.scratch(32);
    std::memset(acc, 0, 32);
    allreduceRabenseifner(s, Reduction(sum, intType(), 8), acc);
  };
  expect(patternOf(4, allreduce), {{{1, 16}, {2, 8}, {2, 8}, {1, 16}},
                                   {{0, 16}, {3, 8}, {3, 8}, {0, 16}},
                                   {{3, 16}, {0, 8}, {0, 8}, {3, 16}},
                                   {{2, 16}, {1, 8}, {1, 8}, {2, 16}}});
  expect(patternOf(5, allreduce), {{{1, 32}},
                                   {{2, 16}, {3, 8}, {3, 8}, {2, 16}, {0, 32}},
                                   {{1, 16}, {4, 8}, {4, 8}, {1, 16}},
                                   {{4, 16}, {1, 8}, {1, 8}, {4, 16}},
                                   {{3, 16}, {2, 8}, {2, 8}, {3, 16}}});
}

TEST_CASE("ring allreduce: 2 (p - 1) chunks to the right neighbour", "[coll][pattern]") {
  auto allreduce = [](int count) {
    return [count](Schedule& s) {
      char* acc = s.scratch(static_cast<std::size_t>(count) * 4);
      std::memset(acc, 0, static_cast<std::size_t>(count) * 4);
      allreduceRing(s, Reduction(sum, intType(), static_cast<std::size_t>(count)), acc);
    };
  };
  expect(patternOf(4, allreduce(8)), ring(4, 6, 8));
  expect(patternOf(5, allreduce(10)), ring(5, 8, 8));
}

TEST_CASE("allgather: recursive doubling, Bruck and ring", "[coll][pattern]") {
  expect(patternOf(4, [](Schedule& s) { allgatherRecursiveDoubling(s, s.scratch(16), 4); }),
         {{{1, 4}, {2, 8}}, {{0, 4}, {3, 8}}, {{3, 4}, {0, 8}}, {{2, 4}, {1, 8}}});
  // Bruck on 5: to r - 1 one block, to r - 2 two, to r - 4 the one still missing there.
  Pattern bruck(5);
  for (int r = 0; r < 5; ++r)
    bruck[static_cast<std::size_t>(r)] = {{(r + 4) % 5, 4}, {(r + 3) % 5, 8}, {(r + 1) % 5, 4}};
  expect(patternOf(5, [](Schedule& s) { allgatherBruck(s, s.scratch(20), 4); }), bruck);
  expect(patternOf(5,
                   [](Schedule& s) {
                     std::vector<Piece> pieces;
                     for (int i = 0; i < 5; ++i) pieces.push_back({i * 4, 4});
                     allgatherRing(s, s.scratch(20), pieces);
                   }),
         ring(5, 4, 4));
}

TEST_CASE("pairwise alltoall: round k goes to r + k", "[coll][pattern]") {
  Pattern want(5);
  for (int r = 0; r < 5; ++r) {
    for (int k = 1; k < 5; ++k) want[static_cast<std::size_t>(r)].push_back({(r + k) % 5, static_cast<uint64_t>(k)});
  }
  // Piece sizes differ per destination (alltoallv): rank d's piece is d - r mod 5 bytes.
  expect(patternOf(5,
                   [](Schedule& s) {
                     std::vector<Piece> send, recv;
                     for (int d = 0; d < 5; ++d) {
                       send.push_back({d * 8, static_cast<std::size_t>((d - s.rank() + 5) % 5)});
                       recv.push_back({d * 8, static_cast<std::size_t>((s.rank() - d + 5) % 5)});
                     }
                     alltoallPairwise(s, s.scratch(40), send, s.scratch(40), recv);
                   }),
         want);
}

TEST_CASE("gather and scatter: binomial subtrees travel whole, linear goes straight", "[coll][pattern]") {
  expect(patternOf(5, [](Schedule& s) { gatherBinomial(s, s.scratch(4), s.scratch(20), 4, 0); }),
         {{}, {{0, 4}}, {{0, 8}}, {{2, 4}}, {{0, 4}}});
  expect(patternOf(5, [](Schedule& s) { gatherBinomial(s, s.scratch(4), s.scratch(20), 4, 3); }),
         {{{3, 8}}, {{0, 4}}, {{3, 4}}, {}, {{3, 4}}});
  expect(patternOf(5, [](Schedule& s) { scatterBinomial(s, s.scratch(20), s.scratch(4), 4, 0); }),
         {{{4, 4}, {2, 8}, {1, 4}}, {}, {{3, 4}}, {}, {}});
  expect(patternOf(4,
                   [](Schedule& s) {
                     std::vector<Piece> pieces;
                     for (int i = 0; i < 4; ++i) pieces.push_back({i * 4, 4});
                     gatherLinear(s, s.scratch(4), 4, s.scratch(16), pieces, 1);
                   }),
         {{{1, 4}}, {}, {{1, 4}}, {{1, 4}}});
}

TEST_CASE("recursive doubling scan: partners r XOR 2^k inside the communicator", "[coll][pattern]") {
  auto scan = [](bool inclusive) {
    return [inclusive](Schedule& s) {
      char* in = s.scratch(8);
      std::memset(in, 0, 8);
      const Reduction reduction(sum, intType(), 2);
      if (inclusive) {
        scanRecursiveDoubling(s, reduction, in, s.scratch(8));
      } else {
        exscanRecursiveDoubling(s, reduction, in, s.scratch(8));
      }
    };
  };
  const Pattern want = {{{1, 8}, {2, 8}, {4, 8}}, {{0, 8}, {3, 8}}, {{3, 8}, {0, 8}}, {{2, 8}, {1, 8}}, {{0, 8}}};
  expect(patternOf(5, scan(true)), want);
  expect(patternOf(5, scan(false)), want);
}

TEST_CASE("pairwise reduce-scatter: round k sends block r + k", "[coll][pattern]") {
  Pattern want(4);
  for (int r = 0; r < 4; ++r) {
    for (int k = 1; k < 4; ++k)
      want[static_cast<std::size_t>(r)].push_back({(r + k) % 4, static_cast<uint64_t>(4 * ((r + k) % 4 + 1))});
  }
  expect(patternOf(4,
                   [](Schedule& s) {
                     const std::vector<std::size_t> counts = {1, 2, 3, 4};
                     char* in = s.scratch(40);
                     std::memset(in, 0, 40);
                     reduceScatterPairwise(s, Reduction(sum, intType(), 10), in, s.scratch(16), counts);
                   }),
         want);
}
