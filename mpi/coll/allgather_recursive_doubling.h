#pragma once
#include <cstddef>

#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Recursive-doubling allgather (Thakur, Rabenseifner & Gropp, "Optimization of Collective
// Communication Operations in MPICH", IJHPCA 2005): log2 p rounds; in round
// k ranks r and r XOR 2^k swap the 2^k blocks each has gathered so far. Powers of two
// only (the selector uses Bruck otherwise). On entry rank r's block is in place in `all`.
void allgatherRecursiveDoubling(Schedule& schedule, char* all, std::size_t block);

}  // namespace zmpi::mpi::coll
