#pragma once
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Dissemination barrier (Hensgen, Finkel & Manber, "Two algorithms for barrier
// synchronization", 1988): ceil(log2 p) rounds; in round k rank r signals r + 2^k and
// waits for r - 2^k. Works for any p, no power-of-two special case.
void barrierDissemination(Schedule& schedule);

// The blocking barrier on its own (MPI_Finalize's barrier).
void barrierDissemination(Communicator& comm);

}  // namespace zmpi::mpi::coll
