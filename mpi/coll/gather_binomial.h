#pragma once
#include <cstddef>

#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Binomial-tree gather (Thakur, Rabenseifner & Gropp, "Optimization of Collective
// Communication Operations in MPICH", IJHPCA 2005): relative rank v
// collects the blocks of its subtree (relative ranks v .. v + lowbit(v) - 1) from its
// children, then sends them to its parent in one message. ceil(log2 p) rounds instead of
// p - 1 messages into the root; intermediate ranks forward data, so it suits small blocks.
// `mine` is this rank's block; `all` (root only) receives p blocks in rank order, and may
// already hold the root's block (mine == all + root * block).
void gatherBinomial(Schedule& schedule, const char* mine, char* all, std::size_t block, int root);

}  // namespace zmpi::mpi::coll
