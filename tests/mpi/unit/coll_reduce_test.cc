// Results of the reductions in mock mode: 1 to 8 ranks, every allreduce algorithm, roots
// other than 0, MPI_IN_PLACE, zero counts, a non-commutative op (rank order), floating-
// point sums identical on every rank, a datatype with gaps. Blocking and nonblocking.
#include <mpi.h>

#include <catch2/catch.hpp>
#include <cmath>

#include "coll_harness.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::coll;
using namespace zmpi::mpi::testing;

namespace {

const TestDoubleSum kDoubleSum;

std::vector<Matrix> matricesOf(int rank, int count) {
  std::vector<Matrix> out;
  for (int i = 0; i < count; ++i) out.push_back(matrixOf(rank, static_cast<std::size_t>(i)));
  return out;
}

// x_first * ... * x_last for each element.
std::vector<Matrix> orderedProduct(int first, int last, int count) {
  std::vector<Matrix> out = matricesOf(first, count);
  for (int r = first + 1; r <= last; ++r) {
    for (int i = 0; i < count; ++i)
      out[static_cast<std::size_t>(i)] =
          multiply(out[static_cast<std::size_t>(i)], matrixOf(r, static_cast<std::size_t>(i)));
  }
  return out;
}

int reduceSumOf(int ranks, int index) { return ranks * (ranks - 1) / 2 * 100 + ranks * index; }
std::vector<int> contribution(int rank, int count) {
  std::vector<int> out(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) out[static_cast<std::size_t>(i)] = rank * 100 + i;
  return out;
}

void report(int p, const PerRank<std::string>& failures, const std::string& what) {
  for (int r = 0; r < p; ++r) {
    INFO(what << " p=" << p << " rank=" << r);
    CHECK(failures[r].empty());
    if (!failures[r].empty()) FAIL_CHECK(failures[r]);
  }
}

}  // namespace

TEST_CASE("allreduce with every algorithm: sums, rank-ordered products, in place", "[coll][results]") {
  for (const char* algorithm : {"recursive_doubling", "rabenseifner", "ring"}) {
    ForceAlgorithm force("ALLREDUCE", algorithm);
    for (int p : ranksUpTo(8)) {
      for (int count : {0, 1, 7, 33}) {
        for (bool inPlace : {false, true}) {
          for (Mode mode : kModes) {
            PerRank<std::string> failures(p);
            runRanks(p, [&](World& world) {
              Communicator& comm = world.commWorld();
              const int r = world.rank();
              std::string failed;
              std::vector<int> in = contribution(r, count), out(static_cast<std::size_t>(count), -1);
              if (inPlace) out = in;
              execute(planAllreduce(comm, inPlace ? MPI_IN_PLACE : in.data(), out.data(), count, intType(), kSum),
                      mode);
              for (int i = 0; i < count; ++i) {
                if (out[static_cast<std::size_t>(i)] != reduceSumOf(p, i)) failed += "sum[" + std::to_string(i) + "]; ";
              }
              if (in != contribution(r, count)) failed += "send buffer changed; ";
              std::vector<Matrix> min = matricesOf(r, count), mout(static_cast<std::size_t>(count));
              if (inPlace) mout = min;
              execute(
                  planAllreduce(comm, inPlace ? MPI_IN_PLACE : min.data(), mout.data(), count, matrixType(), kProduct),
                  mode);
              if (mout != orderedProduct(0, p - 1, count)) failed += "product out of rank order; ";
              failures.set(r, failed);
            });
            report(p, failures,
                   std::string(algorithm) + " count=" + std::to_string(count) + " inPlace=" + std::to_string(inPlace));
          }
        }
      }
    }
  }
}

TEST_CASE("allreduce gives bit-identical floating-point sums on every rank", "[coll][results]") {
  for (const char* algorithm : {"recursive_doubling", "rabenseifner", "ring"}) {
    ForceAlgorithm force("ALLREDUCE", algorithm);
    for (int p : rankCounts({3, 5, 6, 7, 8})) {
      const int count = 40;
      PerRank<std::vector<double>> results(p);
      runRanks(p, [&](World& world) {
        const int r = world.rank();
        // Magnitudes far apart: the rounding of the sum depends on the combination order.
        std::vector<double> in(count), out(count);
        for (int i = 0; i < count; ++i)
          in[static_cast<std::size_t>(i)] = std::ldexp(1.0 + 0.1 * r + 0.01 * i, (r * 17 + i) % 60 - 30);
        execute(planAllreduce(world.commWorld(), in.data(), out.data(), count, doubleType(), kDoubleSum),
                Mode::Blocking);
        results.set(r, out);
      });
      for (int r = 1; r < p; ++r) {
        INFO(algorithm << " p=" << p << " rank " << r << " vs rank 0");
        // Bit for bit: the point is that every rank combined in the same order.
        // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison)
        CHECK(std::memcmp(results[r].data(), results[0].data(), count * sizeof(double)) == 0);
      }
    }
  }
}

TEST_CASE("reduce to any root, commutative or not, in place", "[coll][results]") {
  for (int p : ranksUpTo(8)) {
    for (int count : {0, 1, 5}) {
      for (int root : {0, p - 1, p / 2}) {
        for (bool inPlace : {false, true}) {
          for (Mode mode : kModes) {
            PerRank<std::string> failures(p);
            runRanks(p, [&](World& world) {
              Communicator& comm = world.commWorld();
              const int r = world.rank();
              const bool here = inPlace && r == root;
              std::string failed;
              std::vector<int> in = contribution(r, count), out(static_cast<std::size_t>(count), -1);
              if (here) out = in;
              execute(planReduce(comm, here ? MPI_IN_PLACE : in.data(), out.data(), count, intType(), kSum, root),
                      mode);
              if (r == root) {
                for (int i = 0; i < count; ++i) {
                  if (out[static_cast<std::size_t>(i)] != reduceSumOf(p, i)) failed += "sum; ";
                }
              } else if (out != std::vector<int>(static_cast<std::size_t>(count), -1)) {
                failed += "non-root receive buffer touched; ";
              }
              std::vector<Matrix> min = matricesOf(r, count), mout(static_cast<std::size_t>(count));
              if (here) mout = min;
              execute(
                  planReduce(comm, here ? MPI_IN_PLACE : min.data(), mout.data(), count, matrixType(), kProduct, root),
                  mode);
              if (r == root && mout != orderedProduct(0, p - 1, count)) failed += "product out of rank order; ";
              failures.set(r, failed);
            });
            report(p, failures, "count=" + std::to_string(count) + " root=" + std::to_string(root));
          }
        }
      }
    }
  }
}

TEST_CASE("reduce-scatter and reduce-scatter-block, commutative or not, in place", "[coll][results]") {
  for (int p : ranksUpTo(8)) {
    for (int base : {0, 1, 3}) {
      for (bool inPlace : {false, true}) {
        for (Mode mode : kModes) {
          PerRank<std::string> failures(p);
          runRanks(p, [&](World& world) {
            Communicator& comm = world.commWorld();
            const int r = world.rank();
            std::string failed;
            // Rank i's block: (i + base) % 3 elements (some zero).
            std::vector<int> counts(static_cast<std::size_t>(p));
            int total = 0, first = 0;
            for (int i = 0; i < p; ++i) {
              counts[static_cast<std::size_t>(i)] = (i + base) % 3;
              if (i < r) first += counts[static_cast<std::size_t>(i)];
              total += counts[static_cast<std::size_t>(i)];
            }
            const int mine = counts[static_cast<std::size_t>(r)];
            std::vector<int> in = contribution(r, total), out(static_cast<std::size_t>(inPlace ? total : mine), -1);
            if (inPlace) out = in;
            execute(
                planReduceScatter(comm, inPlace ? MPI_IN_PLACE : in.data(), out.data(), counts.data(), intType(), kSum),
                mode);
            for (int i = 0; i < mine; ++i) {
              if (out[static_cast<std::size_t>(i)] != reduceSumOf(p, first + i)) failed += "sum; ";
            }
            std::vector<Matrix> min = matricesOf(r, total), mout(static_cast<std::size_t>(inPlace ? total : mine));
            if (inPlace) mout = min;
            execute(planReduceScatter(comm, inPlace ? MPI_IN_PLACE : min.data(), mout.data(), counts.data(),
                                      matrixType(), kProduct),
                    mode);
            const std::vector<Matrix> want = orderedProduct(0, p - 1, total);
            for (int i = 0; i < mine; ++i) {
              if (mout[static_cast<std::size_t>(i)] != want[static_cast<std::size_t>(first + i)])
                failed += "product order; ";
            }
            // Block variant: base elements each.
            std::vector<int> bin = contribution(r, base * p), bout(static_cast<std::size_t>(base), -1);
            execute(planReduceScatterBlock(comm, bin.data(), bout.data(), base, intType(), kSum), mode);
            for (int i = 0; i < base; ++i) {
              if (bout[static_cast<std::size_t>(i)] != reduceSumOf(p, r * base + i)) failed += "block sum; ";
            }
            failures.set(r, failed);
          });
          report(p, failures, "base=" + std::to_string(base) + " inPlace=" + std::to_string(inPlace));
        }
      }
    }
  }
}

TEST_CASE("scan and exscan keep rank order, in place or not", "[coll][results]") {
  for (int p : ranksUpTo(8)) {
    for (int count : {0, 1, 4}) {
      for (bool inPlace : {false, true}) {
        for (Mode mode : kModes) {
          PerRank<std::string> failures(p);
          runRanks(p, [&](World& world) {
            Communicator& comm = world.commWorld();
            const int r = world.rank();
            std::string failed;
            std::vector<Matrix> in = matricesOf(r, count), out(static_cast<std::size_t>(count), Matrix{7, 7, 7, 7});
            if (inPlace) out = in;
            execute(planScan(comm, inPlace ? MPI_IN_PLACE : in.data(), out.data(), count, matrixType(), kProduct),
                    mode);
            if (out != orderedProduct(0, r, count)) failed += "scan; ";
            std::vector<Matrix> ex(static_cast<std::size_t>(count), Matrix{7, 7, 7, 7});
            if (inPlace) ex = in;
            execute(planExscan(comm, inPlace ? MPI_IN_PLACE : in.data(), ex.data(), count, matrixType(), kProduct),
                    mode);
            if (r > 0 && ex != orderedProduct(0, r - 1, count)) failed += "exscan; ";
            if (r == 0 &&
                ex != (inPlace ? in : std::vector<Matrix>(static_cast<std::size_t>(count), Matrix{7, 7, 7, 7}))) {
              failed += "exscan touched rank 0; ";
            }
            failures.set(r, failed);
          });
          report(p, failures, "count=" + std::to_string(count) + " inPlace=" + std::to_string(inPlace));
        }
      }
    }
  }
}

TEST_CASE("reductions on a datatype with gaps combine elements and leave gaps alone", "[coll][results][datatype]") {
  const Datatype& padded = paddedIntType();
  for (const char* algorithm : {"recursive_doubling", "rabenseifner", "ring"}) {
    ForceAlgorithm force("ALLREDUCE", algorithm);
    for (int p : rankCounts({1, 3, 4, 5})) {
      PerRank<std::string> failures(p);
      runRanks(p, [&](World& world) {
        Communicator& comm = world.commWorld();
        const int r = world.rank();
        std::string failed;
        const int count = 9;
        std::vector<int> in(2 * count, -5), out(2 * count, -9), scanned(2 * count, -9);
        for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(2 * i)] = r * 100 + i;
        execute(planAllreduce(comm, in.data(), out.data(), count, padded, kSum), Mode::Blocking);
        execute(planScan(comm, in.data(), scanned.data(), count, padded, kSum), Mode::Nonblocking);
        for (int i = 0; i < count; ++i) {
          if (out[static_cast<std::size_t>(2 * i)] != reduceSumOf(p, i)) failed += "allreduce value; ";
          if (out[static_cast<std::size_t>(2 * i + 1)] != -9) failed += "allreduce gap; ";
          if (scanned[static_cast<std::size_t>(2 * i)] != reduceSumOf(r + 1, i)) failed += "scan value; ";
          if (scanned[static_cast<std::size_t>(2 * i + 1)] != -9) failed += "scan gap; ";
        }
        failures.set(r, failed);
      });
      report(p, failures, algorithm);
    }
  }
}
