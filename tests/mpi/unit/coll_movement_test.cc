// Results of the data-movement collectives in mock mode, against references computed
// here: every size from 1 to 8 ranks, roots other than 0, MPI_IN_PLACE, zero counts,
// every algorithm (forced), blocking and nonblocking, a datatype with gaps.
#include <mpi.h>

#include <catch2/catch.hpp>

#include "coll_harness.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::coll;
using namespace zmpi::mpi::testing;

namespace {

int value(int rank, int index) { return rank * 1000 + index; }

std::vector<int> valuesOf(int rank, int count) {
  std::vector<int> out(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) out[static_cast<std::size_t>(i)] = value(rank, i);
  return out;
}

}  // namespace

TEST_CASE("bcast delivers the root's data on 1..8 ranks with every algorithm", "[coll][results]") {
  for (const char* algorithm : {"binomial", "scatter_allgather"}) {
    ForceAlgorithm force("BCAST", algorithm);
    for (int p : ranksUpTo(8)) {
      for (int count : {0, 1, 13, 70000}) {
        for (int root : {0, p - 1, p / 2}) {
          for (Mode mode : kModes) {
            PerRank<bool> ok(p);
            runRanks(p, [&](World& world) {
              const int r = world.rank();
              std::vector<int> data = r == root ? valuesOf(root, count) : std::vector<int>(count, -1);
              execute(planBcast(world.commWorld(), data.data(), count, intType(), root), mode);
              ok.set(r, data == valuesOf(root, count));
            });
            for (int r = 0; r < p; ++r) {
              INFO(algorithm << " p=" << p << " count=" << count << " root=" << root << " rank=" << r);
              CHECK(ok[r]);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("gather and scatter, fixed and variable sizes, in place, any root", "[coll][results]") {
  for (const char* algorithm : {"binomial", "linear"}) {
    ForceAlgorithm gather("GATHER", algorithm);
    ForceAlgorithm scatter("SCATTER", algorithm);
    for (int p : ranksUpTo(8)) {
      for (int count : {0, 1, 3}) {
        for (int root : {0, p - 1, p / 2}) {
          for (bool inPlace : {false, true}) {
            for (Mode mode : kModes) {
              PerRank<std::string> failures(p);
              runRanks(p, [&](World& world) {
                Communicator& comm = world.commWorld();
                const int r = world.rank();
                std::string failed;
                // Gather: rank i's block lands at i * count.
                std::vector<int> mine = valuesOf(r, count);
                std::vector<int> all(static_cast<std::size_t>(p * count), -1);
                if (inPlace && r == root) std::copy(mine.begin(), mine.end(), all.begin() + root * count);
                const void* send = inPlace && r == root ? MPI_IN_PLACE : mine.data();
                execute(planGather(comm, send, count, &intType(), all.data(), count, &intType(), root), mode);
                if (r == root) {
                  for (int i = 0; i < p; ++i) {
                    if (!std::equal(all.begin() + i * count, all.begin() + (i + 1) * count,
                                    valuesOf(i, count).begin())) {
                      failed += "gather block " + std::to_string(i) + "; ";
                    }
                  }
                }
                // Gatherv: rank i sends i % 3 + count ints, placed in reverse rank order with a gap.
                std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
                int offset = 0;
                for (int i = p - 1; i >= 0; --i) {
                  counts[static_cast<std::size_t>(i)] = i % 3 + count;
                  displs[static_cast<std::size_t>(i)] = offset;
                  offset += counts[static_cast<std::size_t>(i)] + 1;
                }
                std::vector<int> vmine = valuesOf(r, counts[static_cast<std::size_t>(r)]);
                std::vector<int> vall(static_cast<std::size_t>(offset), -7);
                if (inPlace && r == root)
                  std::copy(vmine.begin(), vmine.end(), vall.begin() + displs[static_cast<std::size_t>(r)]);
                const void* vsend = inPlace && r == root ? MPI_IN_PLACE : vmine.data();
                execute(planGatherv(comm, vsend, counts[static_cast<std::size_t>(r)], &intType(), vall.data(),
                                    counts.data(), displs.data(), &intType(), root),
                        mode);
                if (r == root) {
                  for (int i = 0; i < p; ++i) {
                    const auto c = static_cast<std::size_t>(counts[static_cast<std::size_t>(i)]);
                    auto at = vall.begin() + displs[static_cast<std::size_t>(i)];
                    if (!std::equal(at, at + static_cast<std::ptrdiff_t>(c),
                                    valuesOf(i, static_cast<int>(c)).begin()) ||
                        at[static_cast<std::ptrdiff_t>(c)] != -7) {
                      failed += "gatherv block " + std::to_string(i) + "; ";
                    }
                  }
                }
                // Scatter: the root's block i goes to rank i.
                std::vector<int> source;
                if (r == root) {
                  for (int i = 0; i < p; ++i) {
                    auto block = valuesOf(i + 50, count);
                    source.insert(source.end(), block.begin(), block.end());
                  }
                }
                std::vector<int> got(static_cast<std::size_t>(count), -1);
                void* into = inPlace && r == root ? MPI_IN_PLACE : got.data();
                execute(planScatter(comm, source.data(), count, &intType(), into, count, &intType(), root), mode);
                if (!(inPlace && r == root) && got != valuesOf(r + 50, count)) failed += "scatter; ";
                // Scatterv, with the gatherv layout.
                std::vector<int> vsource(static_cast<std::size_t>(offset), 0);
                for (int i = 0; i < p; ++i) {
                  auto block = valuesOf(i + 70, counts[static_cast<std::size_t>(i)]);
                  std::copy(block.begin(), block.end(), vsource.begin() + displs[static_cast<std::size_t>(i)]);
                }
                std::vector<int> vgot(static_cast<std::size_t>(counts[static_cast<std::size_t>(r)]), -1);
                void* vinto = inPlace && r == root ? MPI_IN_PLACE : vgot.data();
                execute(planScatterv(comm, vsource.data(), counts.data(), displs.data(), &intType(), vinto,
                                     counts[static_cast<std::size_t>(r)], &intType(), root),
                        mode);
                if (!(inPlace && r == root) && vgot != valuesOf(r + 70, counts[static_cast<std::size_t>(r)]))
                  failed += "scatterv; ";
                failures.set(r, failed);
              });
              for (int r = 0; r < p; ++r) {
                INFO(algorithm << " p=" << p << " count=" << count << " root=" << root << " inPlace=" << inPlace
                               << " rank=" << r);
                CHECK(failures[r].empty());
                if (!failures[r].empty()) FAIL_CHECK(failures[r]);
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("allgather(v) with every algorithm, in place or not", "[coll][results]") {
  for (const char* algorithm : {"recursive_doubling", "bruck", "ring"}) {
    ForceAlgorithm force("ALLGATHER", algorithm);
    for (int p : ranksUpTo(8)) {
      for (int count : {0, 1, 5}) {
        for (bool inPlace : {false, true}) {
          for (Mode mode : kModes) {
            PerRank<std::string> failures(p);
            runRanks(p, [&](World& world) {
              Communicator& comm = world.commWorld();
              const int r = world.rank();
              std::string failed;
              std::vector<int> mine = valuesOf(r, count);
              std::vector<int> all(static_cast<std::size_t>(p * count), -1);
              if (inPlace) std::copy(mine.begin(), mine.end(), all.begin() + r * count);
              execute(planAllgather(comm, inPlace ? MPI_IN_PLACE : mine.data(), count, &intType(), all.data(), count,
                                    intType()),
                      mode);
              for (int i = 0; i < p; ++i) {
                if (!std::equal(all.begin() + i * count, all.begin() + (i + 1) * count, valuesOf(i, count).begin())) {
                  failed += "allgather block " + std::to_string(i) + "; ";
                }
              }
              // Allgatherv: rank i contributes (i * 2 + count) % 4 ints, blocks in reverse order.
              std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
              int offset = 0;
              for (int i = p - 1; i >= 0; --i) {
                counts[static_cast<std::size_t>(i)] = (i * 2 + count) % 4;
                displs[static_cast<std::size_t>(i)] = offset;
                offset += counts[static_cast<std::size_t>(i)];
              }
              std::vector<int> vmine = valuesOf(r, counts[static_cast<std::size_t>(r)]);
              std::vector<int> vall(static_cast<std::size_t>(offset), -1);
              if (inPlace) std::copy(vmine.begin(), vmine.end(), vall.begin() + displs[static_cast<std::size_t>(r)]);
              execute(planAllgatherv(comm, inPlace ? MPI_IN_PLACE : vmine.data(), counts[static_cast<std::size_t>(r)],
                                     &intType(), vall.data(), counts.data(), displs.data(), intType()),
                      mode);
              for (int i = 0; i < p; ++i) {
                auto at = vall.begin() + displs[static_cast<std::size_t>(i)];
                if (!std::equal(at, at + counts[static_cast<std::size_t>(i)],
                                valuesOf(i, counts[static_cast<std::size_t>(i)]).begin())) {
                  failed += "allgatherv block " + std::to_string(i) + "; ";
                }
              }
              failures.set(r, failed);
            });
            for (int r = 0; r < p; ++r) {
              INFO(algorithm << " p=" << p << " count=" << count << " inPlace=" << inPlace << " rank=" << r);
              CHECK(failures[r].empty());
              if (!failures[r].empty()) FAIL_CHECK(failures[r]);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("alltoall, alltoallv and alltoallw, in place or not", "[coll][results]") {
  for (int p : ranksUpTo(8)) {
    for (int count : {0, 1, 3}) {
      for (bool inPlace : {false, true}) {
        for (Mode mode : kModes) {
          PerRank<std::string> failures(p);
          runRanks(p, [&](World& world) {
            Communicator& comm = world.commWorld();
            const int r = world.rank();
            std::string failed;
            // Alltoall: the block rank r sends to d holds value(r * 10 + d, i).
            std::vector<int> send, recv(static_cast<std::size_t>(p * count), -1);
            for (int d = 0; d < p; ++d) {
              auto block = valuesOf(r * 10 + d, count);
              send.insert(send.end(), block.begin(), block.end());
            }
            if (inPlace) recv = send;
            execute(planAlltoall(comm, inPlace ? MPI_IN_PLACE : send.data(), count, &intType(), recv.data(), count,
                                 intType()),
                    mode);
            for (int s = 0; s < p; ++s) {
              if (!std::equal(recv.begin() + s * count, recv.begin() + (s + 1) * count,
                              valuesOf(s * 10 + r, count).begin())) {
                failed += "alltoall from " + std::to_string(s) + "; ";
              }
            }
            // Alltoallv: r sends (r + d) % 3 + count ints to d; layouts packed in reverse order.
            auto sizeOf = [&](int from, int to) { return (from + to) % 3 + count; };
            std::vector<int> scounts(static_cast<std::size_t>(p)), sdispls(static_cast<std::size_t>(p)),
                rcounts(static_cast<std::size_t>(p)), rdispls(static_cast<std::size_t>(p));
            int soff = 0, roff = 0;
            for (int d = p - 1; d >= 0; --d) {
              scounts[static_cast<std::size_t>(d)] = sizeOf(r, d);
              sdispls[static_cast<std::size_t>(d)] = soff;
              soff += scounts[static_cast<std::size_t>(d)];
              rcounts[static_cast<std::size_t>(d)] = sizeOf(d, r);
              rdispls[static_cast<std::size_t>(d)] = roff;
              roff += rcounts[static_cast<std::size_t>(d)];
            }
            std::vector<int> vsend(static_cast<std::size_t>(soff)), vrecv(static_cast<std::size_t>(roff), -1);
            for (int d = 0; d < p; ++d) {
              auto block = valuesOf(r * 10 + d, scounts[static_cast<std::size_t>(d)]);
              std::copy(block.begin(), block.end(), vsend.begin() + sdispls[static_cast<std::size_t>(d)]);
            }
            // In place, alltoallv uses the receive layout for both directions: only when symmetric.
            const bool vInPlace = inPlace && scounts == rcounts;
            if (vInPlace) vrecv = vsend;
            execute(planAlltoallv(comm, vInPlace ? MPI_IN_PLACE : vsend.data(), scounts.data(), sdispls.data(),
                                  &intType(), vrecv.data(), rcounts.data(), rdispls.data(), intType()),
                    mode);
            for (int s = 0; s < p; ++s) {
              auto at = vrecv.begin() + rdispls[static_cast<std::size_t>(s)];
              if (!std::equal(at, at + rcounts[static_cast<std::size_t>(s)],
                              valuesOf(s * 10 + r, rcounts[static_cast<std::size_t>(s)]).begin())) {
                failed += "alltoallv from " + std::to_string(s) + "; ";
              }
            }
            // Alltoallw: the same exchange with byte displacements and per-peer types.
            std::vector<int> sbytes(static_cast<std::size_t>(p)), rbytes(static_cast<std::size_t>(p));
            std::vector<const Datatype*> types(static_cast<std::size_t>(p), &intType());
            for (int d = 0; d < p; ++d) {
              sbytes[static_cast<std::size_t>(d)] = sdispls[static_cast<std::size_t>(d)] * 4;
              rbytes[static_cast<std::size_t>(d)] = rdispls[static_cast<std::size_t>(d)] * 4;
            }
            std::vector<int> wrecv(static_cast<std::size_t>(roff), -1);
            execute(planAlltoallw(comm, vsend.data(), scounts.data(), sbytes.data(), types.data(), wrecv.data(),
                                  rcounts.data(), rbytes.data(), types.data()),
                    mode);
            if (wrecv != vrecv) failed += "alltoallw differs from alltoallv; ";
            failures.set(r, failed);
          });
          for (int r = 0; r < p; ++r) {
            INFO("p=" << p << " count=" << count << " inPlace=" << inPlace << " rank=" << r);
            CHECK(failures[r].empty());
            if (!failures[r].empty()) FAIL_CHECK(failures[r]);
          }
        }
      }
    }
  }
}

TEST_CASE("a datatype with gaps: data moves, gaps stay untouched", "[coll][results][datatype]") {
  const Datatype& padded = paddedIntType();
  for (int p : {1, 3, 4}) {
    for (Mode mode : kModes) {
      PerRank<std::string> failures(p);
      runRanks(p, [&](World& world) {
        Communicator& comm = world.commWorld();
        const int r = world.rank();
        std::string failed;
        // Bcast of 5 padded ints from root 1 % p: odd slots are gaps holding -9.
        const int root = 1 % p;
        std::vector<int> buffer(10, -9);
        if (r == root) {
          for (int i = 0; i < 5; ++i) buffer[static_cast<std::size_t>(2 * i)] = value(root, i);
        }
        execute(planBcast(comm, buffer.data(), 5, padded, root), mode);
        for (int i = 0; i < 5; ++i) {
          if (buffer[static_cast<std::size_t>(2 * i)] != value(root, i)) failed += "bcast value; ";
          if (buffer[static_cast<std::size_t>(2 * i + 1)] != -9) failed += "bcast gap; ";
        }
        // Allgather: contiguous ints sent, padded ints received.
        std::vector<int> mine = valuesOf(r, 2);
        std::vector<int> all(static_cast<std::size_t>(4 * p), -9);
        execute(planAllgather(comm, mine.data(), 2, &intType(), all.data(), 2, padded), mode);
        for (int i = 0; i < p; ++i) {
          for (int k = 0; k < 2; ++k) {
            if (all[static_cast<std::size_t>(4 * i + 2 * k)] != value(i, k)) failed += "allgather value; ";
            if (all[static_cast<std::size_t>(4 * i + 2 * k + 1)] != -9) failed += "allgather gap; ";
          }
        }
        failures.set(r, failed);
      });
      for (int r = 0; r < p; ++r) {
        INFO("p=" << p << " rank=" << r);
        CHECK(failures[r].empty());
        if (!failures[r].empty()) FAIL_CHECK(failures[r]);
      }
    }
  }
}
