#pragma once
#include <vector>

#include "mpi/coll/layout.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Pairwise-exchange all-to-all (Thakur, Rabenseifner & Gropp, "Optimization of Collective
// Communication Operations in MPICH", IJHPCA 2005, long messages): p - 1
// rounds; in round k rank r sends its piece for r + k and receives r - k's piece for it.
// Every rank talks to one peer at a time, which keeps the network uncontended. Any p,
// pieces of any size (alltoallv, alltoallw). `send`/`sendPieces` hold the piece for each
// rank, `recv`/`recvPieces` where each rank's piece goes.
void alltoallPairwise(Schedule& schedule, const char* send, const std::vector<Piece>& sendPieces, char* recv,
                      const std::vector<Piece>& recvPieces);

}  // namespace zmpi::mpi::coll
