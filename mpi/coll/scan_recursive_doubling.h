#pragma once
#include "mpi/coll/reduction.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Recursive-doubling prefix reductions (the MPICH algorithm; see Thakur, Rabenseifner &
// Gropp, IJHPCA 2005, and Hillis & Steele's parallel prefix, CACM 29(12), 1986):
// ceil(log2 p) rounds; in round k ranks r and r XOR 2^k swap the reduction of the
// contiguous block of 2^k ranks each covers so far. A rank folds a lower block into both
// its block total and its prefix, a higher block into its block total only, always as
// (lower ranks) op (higher ranks), so non-commutative ops keep rank order.
// `input` and `result` are span pointers and may be the same buffer.
//  - scan: result = x_0 op ... op x_r
//  - exscan: result = x_0 op ... op x_{r-1}; rank 0's result is left untouched.
void scanRecursiveDoubling(Schedule& schedule, const Reduction& reduction, const char* input, char* result);
void exscanRecursiveDoubling(Schedule& schedule, const Reduction& reduction, const char* input, char* result);

}  // namespace zmpi::mpi::coll
