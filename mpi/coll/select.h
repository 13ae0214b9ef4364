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
#include <optional>

namespace zmpi::mpi {
class Communicator;
}

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

// Large transfers between ranks on one host travel in pieces of this size (pieces.h): half
// the same-host transport's ring (ZMPI_SHM_RING_BYTES, 512 KiB), so a piece never waits in a
// copy for ring space. Elsewhere they travel whole (segmentBytes below); ZMPI_COLL_SEGMENT_BYTES
// overrides the choice (0: no pieces).
inline constexpr std::size_t kSegmentBytes = 256 * 1024;

// Same-host blocking bcast, allreduce, allgather and alltoall above a slot take the staging
// rings (shm_large.h) at every size and rank count (ZMPI_COLL_SHM_LARGE=0: messages).
// Measured 2026-12-02 on the idle 2-core VM (`collectives --min-bytes 262144 --max-bytes
// 16777216 --step 2 --budget-ms 150 --reps 3`, medians of 3 rounds, alternating with
// ZMPI_COLL_SHM_LARGE=0; mpi/coll/README.md has the tables):
//  - 2 ranks: 0.4-0.9x the message paths' time at every size and operation (1 MiB: alltoall
//    108 vs 229-272 us, allgather 127 vs 204-268, allreduce 130 vs 308-345, bcast 44 vs
//    79; Open MPI sm 130-143, 143-167, 213-260, 97-107). Until 2026-12-03 2 ranks kept
//    whole messages above 2 MiB: beside a busy process the rings' 128 KiB rounds took
//    1.3-5x their time (4 MiB allreduce 54 vs 10 ms). That was the binding (both ranks
//    bound, one sharing its core with the busy process); since a contested rank unbinds
//    (core/contention_watch.h) the rings are ahead there too (4 MiB allreduce 1.3-1.4 ms
//    against 3.9-5.8 whole, Open MPI 2.0-2.5), and idle above 2 MiB they take 0.4-0.9x the
//    whole messages' time (4 MiB allreduce 305-449 vs 743-777 us, bcast 99-150 vs 250-270,
//    allgather 394-437 vs 547-562; Open MPI 505-639, 156-171, 294-333).
//  - 3, 4 and 8 ranks (oversubscribed from 3): allgather 0.3-0.9x the ring of messages at
//    256 KiB-16 MiB blocks (4 ranks 1 MiB: 559-706 vs 2100-3400 us; Open MPI 1121); bcast,
//    allreduce and alltoall as measured before (README there).

enum class BcastAlgorithm { Binomial, ScatterAllgather };
enum class AllreduceAlgorithm { RecursiveDoubling, Rabenseifner, Ring };
enum class AllgatherAlgorithm { RecursiveDoubling, Bruck, Ring };
enum class RootedAlgorithm { Binomial, Linear };  // gather and scatter

// ZMPI_COLL_SEGMENT_BYTES, if set: the piece size every communicator uses (0: none).
std::optional<std::size_t> forcedSegmentBytes();
// Piece size of `comm`'s large transfers (pieces.h), 0 for none: kSegmentBytes where every
// rank reaches every other through the same-host rings and there are more than 2 of them,
// else 0. Every rank sees the same (a pair's path is the same from both ends, and "same
// host" is transitive). Measured 2026-12-02 on the idle 2-core VM, `collectives --ops
// allreduce,bcast,alltoall,allgather --min-bytes 262144 --max-bytes 16777216 --budget-ms 150
// --reps 3`, medians of 3 rounds alternating whole and 256 KiB pieces, us per call:
//  - over tcp (ZMPI_TRANSPORT=tcp): pieces fit the tcp eager limit (then 512 KiB), so a transfer
//    became a stream of eager zmq messages instead of one rendezvous on the bulk connection
//    (which cuts its own pieces, ZMPI_TCP_PIECE_BYTES): 2 ranks 4 MiB alltoall 24212 vs 2406,
//    bcast 8774 vs 1027; 4 ranks 4 MiB alltoall 111876 vs 16154, allgather 104810 vs 16713.
//  - 2 ranks on one host (above 2 MiB, where the staging rings stop serving them): each piece
//    is a rendezvous of its own, and with both ranks sending their hand-shakes and wake-ups
//    cost more than the pipeline saves: 4 MiB alltoall 644-729 vs 1418, allgather 627-692
//    vs 1374, allreduce 875-1044 vs 1449, bcast 284-303 vs 321-342.
//  - 4 ranks on one host, message paths (ZMPI_COLL_SHM_LARGE=0: nonblocking calls and
//    communicators of more than 16 ranks take them): whole won from 4 MiB (alltoall 16 MiB
//    26934 vs 44778) but pieces at 1 MiB (bcast 1071 vs 2096), so pieces stay there.
std::size_t segmentBytes(Communicator& comm);

BcastAlgorithm selectBcast(std::size_t bytes, int ranks);
// `splittable`: the datatype can be cut into element ranges (Reduction::splittable).
// `pairEagerLimit`: on 2 ranks whose peer is reached over tcp or ipc (not the same-host
// rings), the eager limit to it (the same both ways), else 0. There Rabenseifner's two
// exchanges of half the operand each pay a rendezvous once a half is above that limit,
// and recursive doubling's one exchange is faster up to kAllreduceTwoRanksDoublingMaxBytes
// (forced tcp, 2 ranks, 3 alternating rounds, us: 128 KiB 157 vs 91, 512 KiB 283 vs 221,
// 1 MiB 444 vs 369; 64 KiB, halves eager, 50 vs 80; 2 MiB 686-724 vs 943).
AllreduceAlgorithm selectAllreduce(std::size_t bytes, std::size_t count, int ranks, bool commutative, bool splittable,
                                   std::size_t pairEagerLimit = 0);
inline constexpr std::size_t kAllreduceTwoRanksDoublingMaxBytes = 1024 * 1024;
// selectAllreduce's `pairEagerLimit` for `comm`.
std::size_t pairEagerLimit(Communicator& comm);
AllgatherAlgorithm selectAllgather(std::size_t totalBytes, int ranks);
RootedAlgorithm selectGather(std::size_t totalBytes, int ranks);
RootedAlgorithm selectScatter(std::size_t totalBytes, int ranks);

}  // namespace zmpi::mpi::coll
