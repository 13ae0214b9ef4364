// Every algorithm with messages above the eager limit, so each transfer takes the
// rendezvous path (Rts, Cts, Data; completion on the progress thread), blocking and
// nonblocking, on 3 and 4 ranks.
#include <mpi.h>

#include <catch2/catch.hpp>

#include "coll_harness.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::coll;
using namespace zmpi::mpi::testing;

namespace {

constexpr int kCount = 50000;  // 200 KB of ints per operand: well above the 64 KiB eager limit
const TestSum kSum;

int valueOf(int rank, int i) { return rank * 7 + i % 1000; }
int sumOf(int ranks, int i) { return 7 * ranks * (ranks - 1) / 2 + ranks * (i % 1000); }

}  // namespace

TEST_CASE("reductions above the eager limit, every algorithm", "[coll][results][large]") {
  for (const char* algorithm : {"recursive_doubling", "rabenseifner", "ring"}) {
    ForceAlgorithm force("ALLREDUCE", algorithm);
    for (int p : {3, 4}) {
      for (Mode mode : {Mode::Blocking, Mode::Nonblocking}) {
        PerRank<std::string> failures(p);
        auto network = runRanks(p, [&](World& world) {
          Communicator& comm = world.commWorld();
          const int r = world.rank();
          std::vector<int> in(kCount), out(kCount, -1), reduced(kCount, -1), scanned(kCount, -1);
          for (int i = 0; i < kCount; ++i) in[static_cast<std::size_t>(i)] = valueOf(r, i);
          execute(planAllreduce(comm, in.data(), out.data(), kCount, intType(), kSum), mode);
          execute(planReduce(comm, in.data(), reduced.data(), kCount, intType(), kSum, p - 1), mode);
          execute(planScan(comm, in.data(), scanned.data(), kCount, intType(), kSum), mode);
          std::vector<int> block(kCount / 4, -1), bigIn(static_cast<std::size_t>(kCount / 4 * p));
          for (std::size_t i = 0; i < bigIn.size(); ++i) bigIn[i] = valueOf(r, static_cast<int>(i));
          execute(planReduceScatterBlock(comm, bigIn.data(), block.data(), kCount / 4, intType(), kSum), mode);
          std::string failed;
          for (int i = 0; i < kCount; ++i) {
            const auto k = static_cast<std::size_t>(i);
            if (out[k] != sumOf(p, i)) failed = "allreduce";
            if (r == p - 1 && reduced[k] != sumOf(p, i)) failed = "reduce";
            if (scanned[k] != sumOf(r + 1, i)) failed = "scan";
          }
          for (int i = 0; i < kCount / 4; ++i) {
            if (block[static_cast<std::size_t>(i)] != sumOf(p, r * (kCount / 4) + i)) failed = "reduce_scatter_block";
          }
          failures.set(r, failed);
        });
        bool rendezvous = false;
        for (const SentRecord& record : network->sent()) rendezvous |= record.kind == MessageKind::Rts;
        CHECK(rendezvous);
        for (int r = 0; r < p; ++r) {
          INFO(algorithm << " p=" << p << " rank " << r << ": " << failures[r]);
          CHECK(failures[r].empty());
        }
      }
    }
  }
}

TEST_CASE("data movement above the eager limit, every algorithm", "[coll][results][large]") {
  for (const char* algorithm : {"recursive_doubling", "bruck", "ring"}) {
    ForceAlgorithm allgather("ALLGATHER", algorithm);
    ForceAlgorithm gather("GATHER", algorithm == std::string("ring") ? "linear" : "binomial");
    ForceAlgorithm scatter("SCATTER", algorithm == std::string("ring") ? "linear" : "binomial");
    ForceAlgorithm bcast("BCAST", algorithm == std::string("ring") ? "scatter_allgather" : "binomial");
    for (int p : {3, 4}) {
      for (Mode mode : {Mode::Blocking, Mode::Nonblocking}) {
        PerRank<std::string> failures(p);
        runRanks(p, [&](World& world) {
          Communicator& comm = world.commWorld();
          const int r = world.rank();
          const int root = 1;
          const auto all = static_cast<std::size_t>(kCount) * static_cast<std::size_t>(p);
          std::vector<int> mine(kCount), gathered(all, -1), everything(all, -1), spread(all), back(kCount, -1),
              exchanged(all, -1), shared(kCount, -1);
          for (int i = 0; i < kCount; ++i) mine[static_cast<std::size_t>(i)] = valueOf(r, i);
          for (std::size_t i = 0; i < all; ++i) spread[i] = valueOf(r, static_cast<int>(i));
          if (r == root) shared = mine;
          execute(planBcast(comm, shared.data(), kCount, intType(), root), mode);
          execute(planGather(comm, mine.data(), kCount, &intType(), gathered.data(), kCount, &intType(), root), mode);
          execute(planScatter(comm, spread.data(), kCount, &intType(), back.data(), kCount, &intType(), root), mode);
          execute(planAllgather(comm, mine.data(), kCount, &intType(), everything.data(), kCount, intType()), mode);
          execute(planAlltoall(comm, spread.data(), kCount, &intType(), exchanged.data(), kCount, intType()), mode);
          std::string failed;
          for (int s = 0; s < p; ++s) {
            for (int i = 0; i < kCount; ++i) {
              const std::size_t k = static_cast<std::size_t>(s) * kCount + static_cast<std::size_t>(i);
              if (r == root && gathered[k] != valueOf(s, i)) failed = "gather";
              if (everything[k] != valueOf(s, i)) failed = "allgather";
              if (exchanged[k] != valueOf(s, r * kCount + i)) failed = "alltoall";
            }
          }
          for (int i = 0; i < kCount; ++i) {
            if (back[static_cast<std::size_t>(i)] != valueOf(root, r * kCount + i)) failed = "scatter";
            if (shared[static_cast<std::size_t>(i)] != valueOf(root, i)) failed = "bcast";
          }
          failures.set(r, failed);
        });
        for (int r = 0; r < p; ++r) {
          INFO(algorithm << " p=" << p << " rank " << r << ": " << failures[r]);
          CHECK(failures[r].empty());
        }
      }
    }
  }
}
