#pragma once
#include "mpi/coll/reduction.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Rabenseifner's allreduce (R. Rabenseifner, "Optimization of Collective Reduction
// Operations", ICCS 2004; Thakur, Rabenseifner & Gropp, IJHPCA 2005): a
// reduce-scatter by recursive halving, then an allgather by recursive doubling, so each
// rank sends and receives about 2 * bytes instead of bytes * log2 p. Non-powers of two
// fold in and out as in allreduceRecursiveDoubling. Halving starts at distance 1, so
// every partial result covers a contiguous range of ranks and is combined as (lower
// ranks) op (higher ranks): rank order holds for non-commutative ops. Each chunk of the
// result is computed on one rank and copied to the others, so all ranks get the same
// bits. Each halving round receives and combines a few pieces at a time
// (Reduction::pieceElements), so the scratch for the partner's half stays small. Needs a
// splittable type (reduction.h).
void allreduceRabenseifner(Schedule& schedule, const Reduction& reduction, char* acc);

}  // namespace zmpi::mpi::coll
