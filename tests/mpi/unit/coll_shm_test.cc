// Shared-memory collectives (coll/shm_collectives.h) against the plans, in mock mode
// (ranks are threads of one process, each mapping the communicator's segment itself): on
// 2, 3, 4 and 8 ranks, every root, in place or not, commutative and non-commutative ops,
// sizes up to the slot and just above it (then the call must decline, or take the staging
// rings where the environment allows (shmLargeEnabled): coll_shm_large_test), the same results.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "coll_harness.h"
#include "mpi/coll/select.h"
#include "mpi/coll/shm_area.h"
#include "mpi/coll/shm_collectives.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::coll;
using namespace zmpi::mpi::testing;

namespace {

// The shm form serves the call (or declines it on every rank, if `fits` is false) and
// ends with the plan's results.
void compare(const std::string& what, int p, bool fits, const ShmCall& call) {
  const ShmOutcome shm = shmOutcomeOf(p, true, call);
  const ShmOutcome plan = shmOutcomeOf(p, false, call);
  INFO(what << " on " << p << " ranks");
  CHECK(shm.served == fits);
  CHECK(shm.results == plan.results);
}

std::vector<char> joined(std::vector<char> a, const std::vector<char>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("shm barrier serves every communicator of a few ranks", "[coll][shm]") {
  for (int p : kShmRankCounts) {
    compare("barrier", p, true, [](Communicator& comm, bool shm, bool& served) {
      for (int i = 0; i < 5; ++i) {
        if (shm) {
          served = barrierShm(comm) && served;
        } else {
          run(*planBarrier(comm));
        }
      }
      return std::vector<char>();
    });
  }
}

TEST_CASE("shm bcast and reduce match the plans for every root", "[coll][shm]") {
  for (int p : kShmRankCounts) {
    for (int root = 0; root < p; ++root) {
      for (int count : {1, 33, kSlotInts, kSlotInts + 1}) {
        const bool fits = count <= kSlotInts || shmLargeEnabled();
        compare("bcast root " + std::to_string(root) + " count " + std::to_string(count), p, fits,
                [&](Communicator& comm, bool shm, bool& served) {
                  std::vector<int> data = comm.rank() == root ? numbers(root, count) : std::vector<int>(count, -1);
                  if (shm) served = bcastShm(comm, data.data(), count, intType(), root);
                  if (!shm || !served) run(*planBcast(comm, data.data(), count, intType(), root));
                  return bytesOf(data);
                });
        if (count % 4 != 0 && count != 1) continue;  // matrices: 16-byte elements
        for (bool inPlace : {false, true}) {
          const int m = count == 1 ? 1 : count / 4;
          compare(
              "reduce root " + std::to_string(root) + " count " + std::to_string(count) + (inPlace ? " in place" : ""),
              p, m * 16 <= static_cast<int>(ShmArea::kSlotBytes), [&](Communicator& comm, bool shm, bool& served) {
                const bool here = inPlace && comm.rank() == root;
                std::vector<int> in = numbers(comm.rank(), count), out(static_cast<std::size_t>(count), -1);
                std::vector<Matrix> min = matrices(comm.rank(), m), mout(static_cast<std::size_t>(m));
                if (here) {
                  out = in;
                  mout = min;
                }
                const void* sendInts = here ? MPI_IN_PLACE : in.data();
                const void* sendMatrices = here ? MPI_IN_PLACE : min.data();
                if (shm) {
                  served = reduceShm(comm, sendInts, out.data(), count, intType(), kSum, root);
                  served = reduceShm(comm, sendMatrices, mout.data(), m, matrixType(), kProduct, root) && served;
                }
                if (!shm || !served) {
                  run(*planReduce(comm, sendInts, out.data(), count, intType(), kSum, root));
                  run(*planReduce(comm, sendMatrices, mout.data(), m, matrixType(), kProduct, root));
                }
                if (comm.rank() != root) return std::vector<char>();
                return joined(bytesOf(out), bytesOf(mout));
              });
        }
      }
    }
  }
}

TEST_CASE("shm allreduce matches the plans, in rank order for non-commutative ops", "[coll][shm]") {
  for (int p : kShmRankCounts) {
    for (int count : {1, 40, kSlotInts, kSlotInts + 1}) {
      for (bool inPlace : {false, true}) {
        const int m = count == 1 ? 1 : count / 4;
        const bool fits = count <= kSlotInts || shmLargeEnabled();
        compare("allreduce count " + std::to_string(count) + (inPlace ? " in place" : ""), p, fits,
                [&](Communicator& comm, bool shm, bool& served) {
                  std::vector<int> in = numbers(comm.rank(), count), out(static_cast<std::size_t>(count), -1);
                  std::vector<Matrix> min = matrices(comm.rank(), m), mout(static_cast<std::size_t>(m));
                  if (inPlace) {
                    out = in;
                    mout = min;
                  }
                  const void* sendInts = inPlace ? MPI_IN_PLACE : in.data();
                  const void* sendMatrices = inPlace ? MPI_IN_PLACE : min.data();
                  if (shm) {
                    served = allreduceShm(comm, sendInts, out.data(), count, intType(), kSum);
                    // The matrices always fit: both calls go the same way only if the ints did.
                    if (served) served = allreduceShm(comm, sendMatrices, mout.data(), m, matrixType(), kProduct);
                  }
                  if (!shm || !served) {
                    run(*planAllreduce(comm, sendInts, out.data(), count, intType(), kSum));
                    run(*planAllreduce(comm, sendMatrices, mout.data(), m, matrixType(), kProduct));
                  }
                  return joined(bytesOf(out), bytesOf(mout));
                });
      }
    }
  }
}

TEST_CASE("shm allgather and alltoall match the plans", "[coll][shm]") {
  for (int p : kShmRankCounts) {
    const int alltoallLimit = kSlotInts / p;
    for (int count : {1, 17, alltoallLimit, alltoallLimit + 1, kSlotInts, kSlotInts + 1}) {
      for (bool inPlace : {false, true}) {
        const std::string how = " count " + std::to_string(count) + (inPlace ? " in place" : "");
        const bool gathers = count <= kSlotInts || shmLargeEnabled();
        compare("allgather" + how, p, gathers, [&](Communicator& comm, bool shm, bool& served) {
          const int r = comm.rank();
          std::vector<int> in = numbers(r, count), out(static_cast<std::size_t>(count * p), -1);
          if (inPlace) std::copy(in.begin(), in.end(), out.begin() + static_cast<std::ptrdiff_t>(r) * count);
          const void* send = inPlace ? MPI_IN_PLACE : in.data();
          const Datatype* sendType = inPlace ? nullptr : &intType();
          if (shm) served = allgatherShm(comm, send, count, sendType, out.data(), count, intType());
          if (!shm || !served) run(*planAllgather(comm, send, count, sendType, out.data(), count, intType()));
          return bytesOf(out);
        });
        const bool exchanges = count <= alltoallLimit || shmLargeEnabled();
        compare("alltoall" + how, p, exchanges, [&](Communicator& comm, bool shm, bool& served) {
          std::vector<int> in = numbers(comm.rank(), count * p), out(static_cast<std::size_t>(count * p), -1);
          if (inPlace) out = in;
          const void* send = inPlace ? MPI_IN_PLACE : in.data();
          const Datatype* sendType = inPlace ? nullptr : &intType();
          if (shm) served = alltoallShm(comm, send, count, sendType, out.data(), count, intType());
          if (!shm || !served) run(*planAlltoall(comm, send, count, sendType, out.data(), count, intType()));
          return bytesOf(out);
        });
      }
    }
  }
}

TEST_CASE("shm collectives in a long mixed sequence reuse their slots safely", "[coll][shm]") {
  // Bcast roots and reduce's non-roots run ahead of slower ranks; each call's values
  // differ, so a slot overwritten before it was read shows as a wrong value.
  constexpr int kRounds = 1000;
  expectNothingWrong(kShmRankCounts, [&](Communicator& comm) {
    const int r = comm.rank();
    const int p = comm.size();
    int bad = 0;
    for (int i = 0; i < kRounds; ++i) {
      const int root = (i / 7) % p;
      // 4 bytes to a whole slot: a run of 1 to 8 units of the ring, wrapping at varying places.
      const int count = 1 + (i * 37) % kSlotInts;
      std::vector<int> data(static_cast<std::size_t>(count), r == root ? i : -1);
      if (!bcastShm(comm, data.data(), count, intType(), root)) ++bad;
      for (int v : data) bad += v != i;
      if (i % 3 == 0) {
        int in = i + r, out = -1;
        if (!reduceShm(comm, &in, &out, 1, intType(), kSum, root)) ++bad;
        if (r == root) bad += out != p * i + p * (p - 1) / 2;
      }
      if (i % 11 == 0) {
        int in = r + i, out = -1;
        if (!allreduceShm(comm, &in, &out, 1, intType(), kSum)) ++bad;
        bad += out != p * i + p * (p - 1) / 2;
      }
    }
    return bad;
  });
}

TEST_CASE("shm bcast root a whole ring ahead waits for its slowest reader", "[coll][shm]") {
  // Rank 1 reads nothing until the root has issued all but one of the calls its ring holds,
  // so the root fills the ring and its next calls must wait for rank 1 to finish the call
  // that last wrote the unit (or rooted slot) they reuse; a unit overwritten before rank 1
  // read it shows as a wrong value. After a first call, which sets the area up on every
  // rank, the root has kSmallUnits small units (kLargeSlots rooted slots) free.
  struct Ring {
    const char* what;
    int count;  // ints per call: a small unit's or a rooted slot's worth
    int depth;
  };
  const Ring rings[] = {{"small units", 1, ShmArea::kSmallUnits}, {"rooted slots", kSlotInts, ShmArea::kLargeSlots}};
  for (const Ring& ring : rings) {
    for (int p : kShmRankCounts) {
      INFO(ring.what);
      std::atomic<int> issued{0};
      expectNothingWrong({p}, [&](Communicator& comm) {
        const int r = comm.rank();
        int bad = 0;
        int first = r == 0 ? -7 : -1;
        if (!bcastShm(comm, &first, 1, intType(), 0)) ++bad;
        bad += first != -7;
        if (r == 1) {
          for (int seen = issued.load(); seen < ring.depth - 1; seen = issued.load()) issued.wait(seen);
        }
        for (int i = 0; i < 3 * ring.depth; ++i) {
          std::vector<int> data(static_cast<std::size_t>(ring.count), r == 0 ? i : -1);
          if (!bcastShm(comm, data.data(), ring.count, intType(), 0)) ++bad;
          for (int v : data) bad += v != i;
          if (r == 0) {
            issued.fetch_add(1);
            issued.notify_all();
          }
        }
        return bad;
      });
    }
  }
}

TEST_CASE("shm synchronising calls alternate stamped lines and slots safely", "[coll][shm]") {
  // Operands of up to ShmArea::kStampedSyncBytes take the stamped lines, larger ones the
  // slots; both alternate by parity. Counts cycle so that each parity's stamped line and
  // slot are reused after calls of the other kind, with values that change every call: a
  // reader let through before its writer's data (a stale stamp, a line rewritten early)
  // shows as a wrong sum or block.
  constexpr int kRounds = 600;
  constexpr int kStampedInts = static_cast<int>(ShmArea::kStampedSyncBytes / sizeof(int));
  static_assert(kStampedInts == 12, "the counts below straddle the stamped size");
  expectNothingWrong(kShmRankCounts, [&](Communicator& comm) {
    const int r = comm.rank();
    const int p = comm.size();
    int bad = 0;
    for (int i = 0; i < kRounds; ++i) {
      const int counts[] = {1, kStampedInts, kStampedInts + 1, 3, 100};
      const int count = counts[(i * 7 / 3) % 5];
      std::vector<int> in(static_cast<std::size_t>(count), i + r);
      std::vector<int> out(static_cast<std::size_t>(count), -1);
      if (!allreduceShm(comm, in.data(), out.data(), count, intType(), kSum)) ++bad;
      for (int v : out) bad += v != p * i + p * (p - 1) / 2;
      // Allgather and alltoall of blocks whose slot holds up to p * count ints.
      const int block = i % 2 == 0 ? 1 : count;
      if (block * p <= kSlotInts) {
        std::vector<int> mine(static_cast<std::size_t>(block * p), i * 16 + r);
        std::vector<int> got(static_cast<std::size_t>(block * p), -1);
        if (!allgatherShm(comm, mine.data(), block, &intType(), got.data(), block, intType())) ++bad;
        for (int q = 0; q < p; ++q) {
          for (int k = 0; k < block; ++k) bad += got[static_cast<std::size_t>(q * block + k)] != i * 16 + q;
        }
        for (int q = 0; q < p; ++q) {
          for (int k = 0; k < block; ++k) mine[static_cast<std::size_t>(q * block + k)] = (i * 16 + r) * 16 + q;
        }
        if (!alltoallShm(comm, mine.data(), block, &intType(), got.data(), block, intType())) ++bad;
        for (int q = 0; q < p; ++q) {
          for (int k = 0; k < block; ++k) bad += got[static_cast<std::size_t>(q * block + k)] != (i * 16 + q) * 16 + r;
        }
      }
      if (i % 5 == 0 && !barrierShm(comm)) ++bad;
    }
    return bad;
  });
}

TEST_CASE("shm synchronising calls stamp only operands that share the stamp's line", "[coll][shm]") {
  CHECK(ShmArea::kStampBytes + ShmArea::kStampedSyncBytes <= 64);
  CHECK(ShmArea::syncBuffer(7, ShmArea::kStampedSyncBytes).stamped);
  CHECK_FALSE(ShmArea::syncBuffer(7, ShmArea::kStampedSyncBytes + 1).stamped);
  CHECK(ShmArea::syncBuffer(7, 8).index != ShmArea::syncBuffer(8, 8).index);
  CHECK(ShmArea::syncBuffer(7, 4096).index != ShmArea::syncBuffer(8, 4096).index);
}
