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
// rings (shm_large.h) at every size and rank count (ZMPI_EXPERIMENT=no-coll-shm-large:
// messages): one copy into a chunk every rank reads beats a message per pair at every size
// measured (bench/HISTORY.md, "Collective selection").

enum class BcastAlgorithm { Binomial, ScatterAllgather };
enum class AllreduceAlgorithm { RecursiveDoubling, Rabenseifner, Ring };
enum class AllgatherAlgorithm { RecursiveDoubling, Bruck, Ring };
enum class RootedAlgorithm { Binomial, Linear };  // gather and scatter

// ZMPI_COLL_SEGMENT_BYTES, if set: the piece size every communicator uses (0: none).
std::optional<std::size_t> forcedSegmentBytes();
// Piece size of `comm`'s large transfers (pieces.h), 0 for none: kSegmentBytes where every
// rank reaches every other through the same-host rings and there are more than 2 of them,
// else 0. Every rank sees the same (a pair's path is the same from both ends, and "same
// host" is transitive). Not over tcp (a piece under the eager limit turns one rendezvous on
// the bulk connection into a stream of eager messages), not between 2 ranks (each piece a
// rendezvous of its own: the hand-shakes cost more than the pipeline saves); 4 and more ranks
// on one host, on the message paths, gain from the pipeline (bench/HISTORY.md, "Collective
// selection").
std::size_t segmentBytes(Communicator& comm);

BcastAlgorithm selectBcast(std::size_t bytes, int ranks);
// `splittable`: the datatype can be cut into element ranges (Reduction::splittable).
// `pairEagerLimit`: on 2 ranks whose peer is reached over tcp or ipc (not the same-host
// rings), the eager limit to it (the same both ways), else 0. There Rabenseifner's two
// exchanges of half the operand each pay a rendezvous once a half is above that limit,
// and recursive doubling's one exchange is faster up to kAllreduceTwoRanksDoublingMaxBytes
// (bench/HISTORY.md, "Collective selection").
AllreduceAlgorithm selectAllreduce(std::size_t bytes, std::size_t count, int ranks, bool commutative, bool splittable,
                                   std::size_t pairEagerLimit = 0);
inline constexpr std::size_t kAllreduceTwoRanksDoublingMaxBytes = 1024 * 1024;
// selectAllreduce's `pairEagerLimit` for `comm`.
std::size_t pairEagerLimit(Communicator& comm);
AllgatherAlgorithm selectAllgather(std::size_t totalBytes, int ranks);
RootedAlgorithm selectGather(std::size_t totalBytes, int ranks);
RootedAlgorithm selectScatter(std::size_t totalBytes, int ranks);

}  // namespace zmpi::mpi::coll
