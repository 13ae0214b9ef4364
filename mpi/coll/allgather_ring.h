#pragma once
#include <vector>

#include "mpi/coll/layout.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Ring allgather (Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication
// Operations in MPICH", IJHPCA 2005): p - 1 rounds; in round k rank r passes
// piece (r - k) mod p to r + 1 and receives piece (r - k - 1) mod p from r - 1. Each rank
// sends and receives (p-1)/p of the data, only to neighbours: bandwidth-optimal for large
// messages. Any p, pieces of any size (allgatherv). On entry rank r's own piece is in
// place in `area`.
void allgatherRing(Schedule& schedule, char* area, const std::vector<Piece>& pieces);

}  // namespace zmpi::mpi::coll
