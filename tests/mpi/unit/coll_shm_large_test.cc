// Shared-memory collectives above a slot (coll/shm_large.h) against the plans, in mock mode
// (ranks are threads of one process): 2, 3, 4 and 8 ranks, every root, in place or not,
// commutative and non-commutative ops, derived types with gaps (also where ranks describe
// the same bytes with different types), sizes around the slot, the chunk, the alltoall
// piece and pair region and the ring of chunks; then long mixed sequences in which writers
// run ahead and alltoall's pair regions alternate with the ring's rounds.
// Chunks and pair regions are 4 KiB here (ctest sets ZMPI_COLL_SHM_CHUNK_BYTES and
// ZMPI_COLL_SHM_PAIR_BYTES) so that a few KiB take many rounds and pieces. On 8 ranks the
// pair regions then take more than the ring (7 x 4 KiB against 4 x 4 KiB), on 2 less.
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

constexpr int kChunkInts = 4096 / sizeof(int);

// Ints in a padded-int buffer (every other int) and back.
std::vector<int> spread(const std::vector<int>& values) {
  std::vector<int> out(values.size() * 2, -9);
  for (std::size_t i = 0; i < values.size(); ++i) out[2 * i] = values[i];
  return out;
}

// An alltoall piece on p ranks, in ints (shm_area.h).
int pairPieceInts(int p) { return static_cast<int>(ShmArea::pairPieceFor(p) / sizeof(int)); }

// Ints around every boundary of the large path: just above a slot, the chunk, the
// alltoall piece and pair region on p ranks, and beyond the ring of kChunks chunks.
std::vector<int> countsFor(int p) {
  const int piece = pairPieceInts(p);
  return {kSlotInts + 1,
          kChunkInts - 1,
          kChunkInts,
          kChunkInts + 1,
          piece - 1,
          piece + 1,
          ShmArea::kPairSlots * piece,
          ShmArea::kPairSlots * piece + 1,
          3 * piece - 1,
          (ShmArea::kChunks + 1) * kChunkInts + 3};
}

// The shm form serves the call on every rank and ends with the plan's results.
void compare(const std::string& what, int p, const ShmCall& call) {
  const ShmOutcome shm = shmOutcomeOf(p, true, call);
  const ShmOutcome plan = shmOutcomeOf(p, false, call);
  INFO(what << " on " << p << " ranks");
  CHECK(shm.served);
  CHECK(shm.results == plan.results);
}

}  // namespace

TEST_CASE("large shm calls use the configured chunk and decline without an area", "[coll][shm]") {
  // ctest's environment for this file (tests/mpi/CMakeLists.txt; see shmOutcomeOf).
  INFO("run with ZMPI_COLL_SHM_AFTER=0 ZMPI_COLL_SHM_CHUNK_BYTES=4096 ZMPI_COLL_SHM_PAIR_BYTES=4096");
  REQUIRE(callsBeforeSetUp() == 0);
  REQUIRE(ShmArea::chunkBytes() == 4096);
  // The ring's share where it is larger (2 ranks), else the configured region (8 ranks).
  CHECK(ShmArea::pairBytes(2) == 4 * 4096);
  CHECK(ShmArea::pairBytes(8) == 4096);
  CHECK(ShmArea::stagingBytes(2) == 4 * 4096);
  CHECK(ShmArea::stagingBytes(8) == 7 * 4096);
  CHECK(shmLargeEnabled());
  // One rank: no shared-memory area, the caller runs the plan.
  runRanks(1, [](World& world) {
    std::vector<int> data(static_cast<std::size_t>(kChunkInts), 7);
    CHECK_FALSE(bcastShm(world.commWorld(), data.data(), kChunkInts, intType(), 0));
    CHECK_FALSE(allreduceShm(world.commWorld(), MPI_IN_PLACE, data.data(), kChunkInts, intType(), kSum));
  });
}

TEST_CASE("large shm bcast matches the plan for every root and layout", "[coll][shm]") {
  for (int p : kShmRankCounts) {
    for (int count : countsFor(p)) {
      for (int root = 0; root < p; ++root) {
        // Padded ints on odd ranks: the same type signature, another layout.
        compare("bcast root " + std::to_string(root) + " count " + std::to_string(count), p,
                [&](Communicator& comm, bool shm, bool& served) {
                  const bool padded = comm.rank() % 2 == 1;
                  std::vector<int> data = comm.rank() == root ? numbers(root, count) : std::vector<int>(count, -1);
                  if (padded) data = spread(data);
                  const Datatype& type = padded ? paddedIntType() : intType();
                  if (shm) served = bcastShm(comm, data.data(), count, type, root);
                  if (!shm || !served) run(*planBcast(comm, data.data(), count, type, root));
                  return bytesOf(data);
                });
      }
    }
  }
}

TEST_CASE("large shm allreduce matches the plan, in rank order for non-commutative ops", "[coll][shm]") {
  for (int p : kShmRankCounts) {
    for (int count : countsFor(p)) {
      for (bool inPlace : {false, true}) {
        const int m = count / 4;  // matrices: 16-byte elements, above a slot from 129 on
        compare("allreduce count " + std::to_string(count) + (inPlace ? " in place" : ""), p,
                [&](Communicator& comm, bool shm, bool& served) {
                  std::vector<int> in = numbers(comm.rank(), count), out(static_cast<std::size_t>(count), -1);
                  std::vector<int> pin = spread(in), pout(static_cast<std::size_t>(2 * count), -1);
                  std::vector<Matrix> min = matrices(comm.rank(), m), mout(static_cast<std::size_t>(m));
                  if (inPlace) {
                    out = in;
                    pout = pin;
                    mout = min;
                  }
                  const void* sendInts = inPlace ? MPI_IN_PLACE : in.data();
                  const void* sendPadded = inPlace ? MPI_IN_PLACE : pin.data();
                  const void* sendMatrices = inPlace ? MPI_IN_PLACE : min.data();
                  if (shm) {
                    served = allreduceShm(comm, sendInts, out.data(), count, intType(), kSum);
                    served = allreduceShm(comm, sendPadded, pout.data(), count, paddedIntType(), kSum) && served;
                    served = allreduceShm(comm, sendMatrices, mout.data(), m, matrixType(), kProduct) && served;
                  } else {
                    run(*planAllreduce(comm, sendInts, out.data(), count, intType(), kSum));
                    run(*planAllreduce(comm, sendPadded, pout.data(), count, paddedIntType(), kSum));
                    run(*planAllreduce(comm, sendMatrices, mout.data(), m, matrixType(), kProduct));
                  }
                  std::vector<char> all = bytesOf(out);
                  for (const auto& more : {bytesOf(pout), bytesOf(mout)})
                    all.insert(all.end(), more.begin(), more.end());
                  return all;
                });
      }
    }
  }
}

TEST_CASE("large shm allgather and alltoall match the plans", "[coll][shm]") {
  for (int p : kShmRankCounts) {
    for (int count : countsFor(p)) {
      for (bool inPlace : {false, true}) {
        for (bool padded : {false, true}) {
          const std::string how =
              " count " + std::to_string(count) + (inPlace ? " in place" : "") + (padded ? " padded" : "");
          // Padded: the receive side (and, on odd ranks, the send side) has gaps.
          compare("allgather" + how, p, [&](Communicator& comm, bool shm, bool& served) {
            const int r = comm.rank();
            const Datatype& recvType = padded ? paddedIntType() : intType();
            const int scale = padded ? 2 : 1;
            std::vector<int> in = numbers(r, count), out(static_cast<std::size_t>(scale * count * p), -1);
            if (inPlace) {
              const std::vector<int> mine = padded ? spread(in) : in;
              std::copy(mine.begin(), mine.end(), out.begin() + static_cast<std::ptrdiff_t>(r) * scale * count);
            }
            const bool paddedSend = padded && r % 2 == 1;
            if (paddedSend) in = spread(in);
            const void* send = inPlace ? MPI_IN_PLACE : in.data();
            const Datatype* sendType = inPlace ? nullptr : paddedSend ? &paddedIntType() : &intType();
            if (shm) served = allgatherShm(comm, send, count, sendType, out.data(), count, recvType);
            if (!shm || !served) run(*planAllgather(comm, send, count, sendType, out.data(), count, recvType));
            return bytesOf(out);
          });
          compare("alltoall" + how, p, [&](Communicator& comm, bool shm, bool& served) {
            const Datatype& type = padded ? paddedIntType() : intType();
            std::vector<int> in = numbers(comm.rank(), count * p), out(static_cast<std::size_t>(count * p), -1);
            if (padded) {
              in = spread(in);
              out = spread(out);
            }
            if (inPlace) out = in;
            const void* send = inPlace ? MPI_IN_PLACE : in.data();
            const Datatype* sendType = inPlace ? nullptr : &type;
            if (shm) served = alltoallShm(comm, send, count, sendType, out.data(), count, type);
            if (!shm || !served) run(*planAlltoall(comm, send, count, sendType, out.data(), count, type));
            return bytesOf(out);
          });
        }
      }
    }
  }
}

TEST_CASE("large shm calls serve every size, also past the 2 MiB that 2 ranks once stopped at", "[coll][shm]") {
  // Served alike on every rank, the plan's results.
  for (int p : {2, 3}) {
    for (int blocks : {(2 << 20) / 4 + 1, (4 << 20) / 4 + 3}) {
      const auto exchange = [&](Communicator& comm, bool shm, bool& served) {
        std::vector<int> in = numbers(comm.rank(), blocks * p), out(static_cast<std::size_t>(blocks * p), -1);
        if (shm) served = alltoallShm(comm, in.data(), blocks, &intType(), out.data(), blocks, intType());
        if (!shm || !served) run(*planAlltoall(comm, in.data(), blocks, &intType(), out.data(), blocks, intType()));
        return bytesOf(out);
      };
      const ShmOutcome shm = shmOutcomeOf(p, true, exchange);
      const ShmOutcome plan = shmOutcomeOf(p, false, exchange);
      INFO(p << " ranks, blocks of " << blocks << " ints");
      CHECK(shm.served);
      CHECK(shm.results == plan.results);
    }
  }
}

TEST_CASE("large and small shm calls in a long mixed sequence reuse chunks and slots safely", "[coll][shm]") {
  // Bcast roots run up to kChunks rounds ahead of slow readers; every call's values differ,
  // so a chunk overwritten before it was read shows as a wrong value.
  constexpr int kCalls = 300;
  expectNothingWrong(kShmRankCounts, [&](Communicator& comm) {
    const int r = comm.rank();
    const int p = comm.size();
    int bad = 0;
    for (int i = 0; i < kCalls; ++i) {
      const int root = (i / 3) % p;
      // 1 to 9 chunks, and now and then a small call between.
      const int count = kSlotInts + 1 + (i * 977) % (9 * kChunkInts);
      std::vector<int> data(static_cast<std::size_t>(count), -1);
      if (r == root)
        for (int k = 0; k < count; ++k) data[static_cast<std::size_t>(k)] = i + k;
      if (!bcastShm(comm, data.data(), count, intType(), root)) ++bad;
      for (int k = 0; k < count; ++k) bad += data[static_cast<std::size_t>(k)] != i + k;
      if (i % 5 == 0) {
        int value = r == root ? -i : 0;
        if (!bcastShm(comm, &value, 1, intType(), root)) ++bad;
        bad += value != -i;
      }
      if (i % 7 == 0) {
        std::vector<int> in(static_cast<std::size_t>(count), r + i), out(static_cast<std::size_t>(count), -1);
        if (!allreduceShm(comm, in.data(), out.data(), count, intType(), kSum)) ++bad;
        for (int v : out) bad += v != p * i + p * (p - 1) / 2;
      }
      // Alltoall right after ring rounds, and back to back (every third call twice, the
      // second in place): the pair regions' counts carry over, the ring waits for them.
      if (i % 3 == 0 && p > 2) {
        const int blocks = 1 + (i * 131) % (3 * pairPieceInts(p));
        for (bool inPlace : {false, i % 2 == 0}) {
          std::vector<int> in(static_cast<std::size_t>(blocks * p)), out(in.size(), -1);
          for (int k = 0; k < blocks * p; ++k) in[static_cast<std::size_t>(k)] = (i + r) * 1000003 + k;
          if (inPlace) out = in;
          if (!alltoallShm(comm, inPlace ? MPI_IN_PLACE : in.data(), blocks, inPlace ? nullptr : &intType(), out.data(),
                           blocks, intType()))
            ++bad;
          // Block q came from rank q: its block r.
          for (int k = 0; k < blocks * p; ++k)
            bad += out[static_cast<std::size_t>(k)] != (i + k / blocks) * 1000003 + r * blocks + k % blocks;
        }
      }
      if (i % 11 == 0) {
        std::vector<int> in(static_cast<std::size_t>(count), r), out(static_cast<std::size_t>(count * p), -1);
        if (!allgatherShm(comm, in.data(), count, &intType(), out.data(), count, intType()))
          run(*planAllgather(comm, in.data(), count, &intType(), out.data(), count, intType()));
        for (int k = 0; k < count * p; ++k) bad += out[static_cast<std::size_t>(k)] != k / count;
      }
    }
    return bad;
  });
}
