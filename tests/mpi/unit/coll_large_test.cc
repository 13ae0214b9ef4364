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

constexpr int kLargeInts = 50000;  // 200 KB of ints per operand: well above the 64 KiB eager limit

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
          std::vector<int> in(kLargeInts), out(kLargeInts, -1), reduced(kLargeInts, -1), scanned(kLargeInts, -1);
          for (int i = 0; i < kLargeInts; ++i) in[static_cast<std::size_t>(i)] = largeValueOf(r, i);
          execute(planAllreduce(comm, in.data(), out.data(), kLargeInts, intType(), kSum), mode);
          execute(planReduce(comm, in.data(), reduced.data(), kLargeInts, intType(), kSum, p - 1), mode);
          execute(planScan(comm, in.data(), scanned.data(), kLargeInts, intType(), kSum), mode);
          std::vector<int> block(kLargeInts / 4, -1), bigIn(static_cast<std::size_t>(kLargeInts / 4 * p));
          for (std::size_t i = 0; i < bigIn.size(); ++i) bigIn[i] = largeValueOf(r, static_cast<int>(i));
          execute(planReduceScatterBlock(comm, bigIn.data(), block.data(), kLargeInts / 4, intType(), kSum), mode);
          std::string failed;
          for (int i = 0; i < kLargeInts; ++i) {
            const auto k = static_cast<std::size_t>(i);
            if (out[k] != largeSumOf(p, i)) failed = "allreduce";
            if (r == p - 1 && reduced[k] != largeSumOf(p, i)) failed = "reduce";
            if (scanned[k] != largeSumOf(r + 1, i)) failed = "scan";
          }
          for (int i = 0; i < kLargeInts / 4; ++i) {
            if (block[static_cast<std::size_t>(i)] != largeSumOf(p, r * (kLargeInts / 4) + i))
              failed = "reduce_scatter_block";
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
          const auto all = static_cast<std::size_t>(kLargeInts) * static_cast<std::size_t>(p);
          std::vector<int> mine(kLargeInts), gathered(all, -1), everything(all, -1), spread(all), back(kLargeInts, -1),
              exchanged(all, -1), shared(kLargeInts, -1);
          for (int i = 0; i < kLargeInts; ++i) mine[static_cast<std::size_t>(i)] = largeValueOf(r, i);
          for (std::size_t i = 0; i < all; ++i) spread[i] = largeValueOf(r, static_cast<int>(i));
          if (r == root) shared = mine;
          execute(planBcast(comm, shared.data(), kLargeInts, intType(), root), mode);
          execute(planGather(comm, mine.data(), kLargeInts, &intType(), gathered.data(), kLargeInts, &intType(), root),
                  mode);
          execute(planScatter(comm, spread.data(), kLargeInts, &intType(), back.data(), kLargeInts, &intType(), root),
                  mode);
          execute(planAllgather(comm, mine.data(), kLargeInts, &intType(), everything.data(), kLargeInts, intType()),
                  mode);
          execute(planAlltoall(comm, spread.data(), kLargeInts, &intType(), exchanged.data(), kLargeInts, intType()),
                  mode);
          std::string failed;
          for (int s = 0; s < p; ++s) {
            for (int i = 0; i < kLargeInts; ++i) {
              const std::size_t k = static_cast<std::size_t>(s) * kLargeInts + static_cast<std::size_t>(i);
              if (r == root && gathered[k] != largeValueOf(s, i)) failed = "gather";
              if (everything[k] != largeValueOf(s, i)) failed = "allgather";
              if (exchanged[k] != largeValueOf(s, r * kLargeInts + i)) failed = "alltoall";
            }
          }
          for (int i = 0; i < kLargeInts; ++i) {
            if (back[static_cast<std::size_t>(i)] != largeValueOf(root, r * kLargeInts + i)) failed = "scatter";
            if (shared[static_cast<std::size_t>(i)] != largeValueOf(root, i)) failed = "bcast";
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
