#pragma once
#include <cstddef>

#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Binomial-tree broadcast (Thakur, Rabenseifner & Gropp, "Optimization of Collective
// Communication Operations in MPICH", IJHPCA 19(1), 2005): with relative rank
// v = (rank - root) mod p, v receives from v - lowbit(v), then sends to v + 2^k for every
// 2^k < lowbit(v), largest subtree first. ceil(log2 p) rounds; every byte crosses each
// tree edge once. Any p.
void bcastBinomial(Schedule& schedule, char* data, std::size_t bytes, int root);

// The tree both binomial broadcasts and scatters use: v's parent and subtree span
// (for the root: the smallest power of two >= p).
int binomialSubtree(int v, int p);

}  // namespace zmpi::mpi::coll
