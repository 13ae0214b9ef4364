#pragma once
// Which algorithm each collective uses, by message size and rank count. Every rank must
// choose the same, so the inputs are only values all ranks agree on (sizes from matching
// type signatures, the communicator size, the op, environment variables the launcher
// passes to every rank).
//
// ZMPI_COLL_<COLLECTIVE>=<algorithm> forces a choice (tests, tuning), e.g.
// ZMPI_COLL_ALLREDUCE=ring. A forced algorithm that cannot serve the call (ring with a
// non-commutative op, recursive doubling allgather on 6 ranks, ...) falls back to the
// default choice; an unknown name is an error.
#include <cstddef>

namespace zmpi::mpi::coll {

// Above these sizes the bandwidth-bound algorithm wins over the latency-bound one.
inline constexpr std::size_t kBcastScatterAllgatherMinBytes = 256 * 1024;
// Below 8 ranks a binomial tree sends at most log2 p <= 2 copies from any rank, no more
// than scatter + allgather's 2 n, in fewer messages (MPICH: MPIR_CVAR_BCAST_MIN_PROCS = 8).
// Measured on 4 ranks, 2 cores, 256 KiB-8 MiB: binomial 0.5-0.7x scatter_allgather's time.
inline constexpr int kBcastScatterAllgatherMinRanks = 8;
inline constexpr std::size_t kAllreduceLargeMinBytes = 64 * 1024;
inline constexpr std::size_t kAllgatherRingMinBytes = 512 * 1024;  // all ranks' data together
inline constexpr std::size_t kGatherLinearMinBytes = 64 * 1024;    // all ranks' data together

// Large transfers travel in pieces of this size (pieces.h): half the same-host
// transport's ring (ZMPI_SHM_RING_BYTES, 512 KiB), so a piece never waits in a copy for ring
// space. ZMPI_COLL_SEGMENT_BYTES overrides it (0: no pieces).
inline constexpr std::size_t kSegmentBytes = 256 * 1024;

// Which same-host blocking calls above a slot take the staging rings (shm_large.h) rather
// than messages, by bytes per operand (allgather, alltoall: per block). Measured on the
// 2-core VM under load, batch means against the message paths (mpi/coll/README.md):
//  - 2 ranks (a core each): bcast and allreduce in one chunk (up to
//    kShmLargeMaxBytesTwoRanks) 0.02-0.7x; above, the point-to-point pipeline (256 KiB
//    pieces through a 512 KiB ring) took up to half the time. Allgather and alltoall, one
//    eager message each way up to 64 KiB (direct.h), were as fast or faster at every size
//    (alltoall through the pair regions: 2.2x the messages' time at 1 MiB, 1.1-1.4x below).
//  - more ranks (oversubscribed at 4): bcast and allreduce 0.3-0.9x at every size;
//    allgather 0.35-0.95x up to 512 KiB blocks, about even above; alltoall, through pair
//    regions that let each pair progress on its own, 0.3-0.7x the time of Open MPI and
//    0.5-0.8x the pairwise exchange's at every size (16 KiB-16 MiB blocks on 4 ranks).
enum class ShmLarge { Bcast, Allreduce, Allgather, Alltoall };
inline constexpr std::size_t kShmLargeMaxBytesTwoRanks = 128 * 1024;
inline constexpr std::size_t kShmLargeAllgatherMaxBytes = 512 * 1024;
bool shmLargeServes(ShmLarge collective, int ranks, std::size_t bytes);

enum class BcastAlgorithm { Binomial, ScatterAllgather };
enum class AllreduceAlgorithm { RecursiveDoubling, Rabenseifner, Ring };
enum class AllgatherAlgorithm { RecursiveDoubling, Bruck, Ring };
enum class RootedAlgorithm { Binomial, Linear };  // gather and scatter

// Piece size of large transfers (pieces.h), 0 for none: ZMPI_COLL_SEGMENT_BYTES.
std::size_t segmentBytes();

BcastAlgorithm selectBcast(std::size_t bytes, int ranks);
// `splittable`: the datatype can be cut into element ranges (Reduction::splittable).
AllreduceAlgorithm selectAllreduce(std::size_t bytes, std::size_t count, int ranks, bool commutative, bool splittable);
AllgatherAlgorithm selectAllgather(std::size_t totalBytes, int ranks);
RootedAlgorithm selectGather(std::size_t totalBytes, int ranks);
RootedAlgorithm selectScatter(std::size_t totalBytes, int ranks);

}  // namespace zmpi::mpi::coll
