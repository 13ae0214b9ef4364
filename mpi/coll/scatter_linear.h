#pragma once
#include <cstddef>
#include <vector>

#include "mpi/coll/layout.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Linear scatter, the mirror of gatherLinear: the root sends every rank its piece
// directly, all at once. For large blocks and for pieces of differing sizes (scatterv).
// `all` and `pieces` (root only) say where each rank's piece is; `mine` receives this
// rank's (null at a root called with MPI_IN_PLACE).
void scatterLinear(Schedule& schedule, const char* all, const std::vector<Piece>& pieces, char* mine,
                   std::size_t myBytes, int root);

}  // namespace zmpi::mpi::coll
