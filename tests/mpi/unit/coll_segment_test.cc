// Large transfers in pieces (Schedule::segment, ZMPI_COLL_SEGMENT_BYTES): no message of
// bcast, allgather, alltoall or allreduce carries more than a piece, results are intact,
// and Rabenseifner's allreduce combines a few pieces at a time in that much scratch. (The
// other collective suites run once more with tiny pieces: tests/mpi/CMakeLists.txt.)
#include <mpi.h>

#include <catch2/catch.hpp>

#include "coll_harness.h"
#include "mpi/coll/alltoall_pairwise_in_place.h"
#include "mpi/coll/reduction.h"
#include "mpi/coll/select.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::coll;
using namespace zmpi::mpi::testing;

namespace {

constexpr std::size_t kPiece = 4096;
constexpr int kSegmentInts = 30000;  // ints: 120 KB per operand, about 29 pieces

}  // namespace

TEST_CASE("no collective message is larger than a piece", "[coll][segment]") {
  ForceAlgorithm pieces("SEGMENT_BYTES", std::to_string(kPiece));
  for (const char* allreduce : {"rabenseifner", "recursive_doubling", "ring"}) {
    ForceAlgorithm force("ALLREDUCE", allreduce);
    ForceAlgorithm bcast("BCAST", allreduce == std::string("ring") ? "binomial" : "scatter_allgather");
    for (int p : {2, 3, 4, 5}) {
      for (Mode mode : {Mode::Blocking, Mode::Nonblocking}) {
        PerRank<std::string> failures(p);
        auto network = runRanks(p, [&](World& world) {
          Communicator& comm = world.commWorld();
          const int r = world.rank();
          const auto all = static_cast<std::size_t>(kSegmentInts) * static_cast<std::size_t>(p);
          std::vector<int> mine(kSegmentInts), sum(kSegmentInts, -1), shared(kSegmentInts, -1), everything(all, -1),
              spread(all), exchanged(all, -1);
          for (int i = 0; i < kSegmentInts; ++i) mine[static_cast<std::size_t>(i)] = largeValueOf(r, i);
          for (std::size_t i = 0; i < all; ++i) spread[i] = largeValueOf(r, static_cast<int>(i));
          if (r == 0) shared = mine;
          execute(planAllreduce(comm, mine.data(), sum.data(), kSegmentInts, intType(), kSum), mode);
          execute(planBcast(comm, shared.data(), kSegmentInts, intType(), 0), mode);
          execute(
              planAllgather(comm, mine.data(), kSegmentInts, &intType(), everything.data(), kSegmentInts, intType()),
              mode);
          execute(
              planAlltoall(comm, spread.data(), kSegmentInts, &intType(), exchanged.data(), kSegmentInts, intType()),
              mode);
          std::string failed;
          for (int i = 0; i < kSegmentInts; ++i) {
            if (sum[static_cast<std::size_t>(i)] != largeSumOf(p, i)) failed = "allreduce";
            if (shared[static_cast<std::size_t>(i)] != largeValueOf(0, i)) failed = "bcast";
          }
          for (int s = 0; s < p; ++s) {
            for (int i = 0; i < kSegmentInts; ++i) {
              const std::size_t k = static_cast<std::size_t>(s) * kSegmentInts + static_cast<std::size_t>(i);
              if (everything[k] != largeValueOf(s, i)) failed = "allgather";
              if (exchanged[k] != largeValueOf(s, r * kSegmentInts + i)) failed = "alltoall";
            }
          }
          failures.set(r, failed);
        });
        uint64_t largest = 0;
        for (const SentRecord& record : network->sent()) largest = std::max(largest, record.payloadBytes);
        INFO(allreduce << " p=" << p);
        CHECK(largest <= kPiece);
        CHECK(largest > kPiece / 2);  // the data did travel
        for (int r = 0; r < p; ++r) {
          INFO("rank " << r << ": " << failures[r]);
          CHECK(failures[r].empty());
        }
      }
    }
  }
}

TEST_CASE("Rabenseifner allreduce combines a few pieces at a time in small scratch", "[coll][segment]") {
  ForceAlgorithm force("ALLREDUCE", "rabenseifner");
  for (const std::string& piece : {std::to_string(kPiece), std::string("0")}) {
    ForceAlgorithm pieces("SEGMENT_BYTES", piece);
    for (int p : {2, 4, 5}) {
      PerRank<std::size_t> scratch(p);
      PerRank<bool> ok(p);
      runRanks(p, [&](World& world) {
        const int r = world.rank();
        std::vector<int> data(kSegmentInts);
        for (int i = 0; i < kSegmentInts; ++i) data[static_cast<std::size_t>(i)] = largeValueOf(r, i);
        Plan plan = planAllreduce(world.commWorld(), MPI_IN_PLACE, data.data(), kSegmentInts, intType(), kSum);
        scratch.set(r, plan->scratchBytes());
        execute(std::move(plan), Mode::Blocking);
        bool good = true;
        for (int i = 0; i < kSegmentInts; ++i) good &= data[static_cast<std::size_t>(i)] == largeSumOf(p, i);
        ok.set(r, good);
      });
      std::size_t most = 0;
      for (int r = 0; r < p; ++r) {
        INFO("piece " << piece << " p=" << p << " rank " << r);
        CHECK(ok[r]);
        most = std::max(most, scratch[r]);
        if (piece != "0") CHECK(scratch[r] <= 2 * Reduction::kCombinePieces * kPiece);
      }
      INFO("p=" << p);
      if (piece == "0") CHECK(most >= kSegmentInts * sizeof(int) / 2);  // without pieces: half the operand
    }
  }
}

TEST_CASE("pieces only among more than 2 ranks that reach each other through the rings", "[coll][segment]") {
  // An allgather of blocks above a piece: cut into pieces, or sent whole, as
  // segmentBytes(comm) says -- and the same on every rank, or the pieces would not match.
  constexpr int kBlockInts = static_cast<int>(kSegmentBytes / sizeof(int)) + 1000;
  for (int p : {2, 3, 4}) {
    for (bool rings : {false, true}) {
      PerRank<std::size_t> chosen(p);
      PerRank<int> intact(p);  // not bool: vector<bool>'s elements share words
      auto network = runRanks(
          p,
          [&](World& world) {
            Communicator& comm = world.commWorld();
            chosen.set(world.rank(), segmentBytes(comm));
            std::vector<int> mine(kBlockInts, world.rank() + 1), all(static_cast<std::size_t>(p) * kBlockInts, 0);
            run(*planAllgather(comm, mine.data(), kBlockInts, &intType(), all.data(), kBlockInts, intType()));
            bool ok = true;
            for (std::size_t i = 0; i < all.size(); ++i) ok = ok && all[i] == static_cast<int>(i / kBlockInts) + 1;
            intact.set(world.rank(), ok ? 1 : 0);
          },
          [&](MockNetwork& net) { net.setRingPeers(rings); });
      const std::size_t expected = rings && p > 2 ? kSegmentBytes : 0;
      uint64_t largest = 0;
      for (const SentRecord& record : network->sent()) largest = std::max(largest, record.payloadBytes);
      INFO(p << " ranks, " << (rings ? "rings" : "no rings"));
      for (int r = 0; r < p; ++r) {
        CHECK(chosen[r] == expected);
        CHECK(intact[r] == 1);
      }
      if (expected == 0) {
        CHECK(largest >= kBlockInts * sizeof(int));
      } else {
        CHECK(largest <= kSegmentBytes);
      }
    }
  }
  ForceAlgorithm pieces("SEGMENT_BYTES", "65536");
  PerRank<std::size_t> forced(2);
  runRanks(2, [&](World& world) { forced.set(world.rank(), segmentBytes(world.commWorld())); });
  CHECK(forced[0] == 65536);
  CHECK(forced[1] == 65536);
}

TEST_CASE("ZMPI_COLL_SEGMENT_BYTES must be a byte count", "[coll][segment]") {
  {
    ForceAlgorithm pieces("SEGMENT_BYTES", "64k");
    CHECK_THROWS_AS(forcedSegmentBytes(), MpiError);
  }
  ForceAlgorithm pieces("SEGMENT_BYTES", "0");
  CHECK(forcedSegmentBytes() == 0);
}

TEST_CASE("in-place alltoall: tournament rounds pair every two ranks once", "[coll][segment][pattern]") {
  for (int p = 1; p <= 9; ++p) {
    std::vector<std::vector<int>> met(static_cast<std::size_t>(p), std::vector<int>(static_cast<std::size_t>(p), 0));
    for (int k = 0; k < tournamentRounds(p); ++k) {
      for (int r = 0; r < p; ++r) {
        const int q = tournamentPeer(r, p, k);
        INFO("p=" << p << " round " << k << " rank " << r);
        REQUIRE(q >= 0);
        REQUIRE(q < p);
        CHECK(tournamentPeer(q, p, k) == r);  // mutual
        if (q != r) ++met[static_cast<std::size_t>(r)][static_cast<std::size_t>(q)];
      }
    }
    for (int r = 0; r < p; ++r) {
      for (int q = 0; q < p; ++q) {
        INFO("p=" << p << " ranks " << r << ", " << q);
        CHECK(met[static_cast<std::size_t>(r)][static_cast<std::size_t>(q)] == (q == r ? 0 : 1));
      }
    }
  }
}

TEST_CASE("in-place alltoall swaps blocks through a few pieces of scratch", "[coll][segment]") {
  for (const std::string& piece : {std::to_string(kPiece), std::string("0")}) {
    ForceAlgorithm pieces("SEGMENT_BYTES", piece);
    for (int p : {2, 3, 4, 5}) {
      for (Mode mode : {Mode::Blocking, Mode::Nonblocking}) {
        PerRank<std::size_t> scratch(p);
        PerRank<bool> ok(p);
        runRanks(p, [&](World& world) {
          const int r = world.rank();
          const auto all = static_cast<std::size_t>(kSegmentInts) * static_cast<std::size_t>(p);
          std::vector<int> data(all);
          for (std::size_t i = 0; i < all; ++i) data[i] = largeValueOf(r, static_cast<int>(i));
          Plan plan = planAlltoall(world.commWorld(), MPI_IN_PLACE, 0, nullptr, data.data(), kSegmentInts, intType());
          scratch.set(r, plan->scratchBytes());
          execute(std::move(plan), mode);
          bool good = true;
          for (int s = 0; s < p; ++s) {
            for (int i = 0; i < kSegmentInts; ++i) {
              good &= data[static_cast<std::size_t>(s) * kSegmentInts + static_cast<std::size_t>(i)] ==
                      largeValueOf(s, r * kSegmentInts + i);
            }
          }
          ok.set(r, good);
        });
        for (int r = 0; r < p; ++r) {
          INFO("piece " << piece << " p=" << p << " rank " << r);
          CHECK(ok[r]);
          if (piece == "0") {
            CHECK(scratch[r] == kSegmentInts * sizeof(int));  // one block, not the whole buffer
          } else {
            CHECK(scratch[r] <= Reduction::kCombinePieces * kPiece);
          }
        }
      }
    }
  }
}
