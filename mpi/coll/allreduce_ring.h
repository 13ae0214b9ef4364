#pragma once
#include "mpi/coll/reduction.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Ring allreduce (Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms for clusters
// of workstations", JPDC 69(2), 2009): the operand is cut into p chunks; a ring
// reduce-scatter (p - 1 rounds, each rank adds its contribution to the chunk passing
// through) leaves rank r with chunk r + 1 complete, then a ring allgather (p - 1 rounds)
// circulates the complete chunks. Each rank sends 2 (p-1)/p * bytes, only to its right
// neighbour; any p. A chunk's combination starts at a different rank for each chunk, so
// this needs a commutative op; every chunk is computed once, so all ranks get the same
// bits. Needs a splittable type.
void allreduceRing(Schedule& schedule, const Reduction& reduction, char* acc);

}  // namespace zmpi::mpi::coll
