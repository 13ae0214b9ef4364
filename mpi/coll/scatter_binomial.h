#pragma once
#include <cstddef>

#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Binomial-tree scatter (Thakur, Rabenseifner & Gropp, IJHPCA 2005):
// the mirror of gatherBinomial. Relative rank v receives its subtree's blocks from its
// parent in one message and passes each child its own subtree's, largest first.
// `all` (root only) holds p blocks in rank order; `mine` receives this rank's block (null
// at a root called with MPI_IN_PLACE).
void scatterBinomial(Schedule& schedule, const char* all, char* mine, std::size_t block, int root);

}  // namespace zmpi::mpi::coll
