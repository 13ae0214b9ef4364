#pragma once
#include <cstddef>
#include <vector>

#include "mpi/coll/layout.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Linear gather: every rank sends its piece straight to the root, which posts all its
// receives at once. p - 1 messages into the root and no forwarding, so no byte travels
// twice: the choice for large blocks, and for pieces of differing sizes (gatherv).
// `mine` is this rank's piece (null at a root called with MPI_IN_PLACE); `all` and
// `pieces` (root only) say where each rank's piece goes.
void gatherLinear(Schedule& schedule, const char* mine, std::size_t myBytes, char* all,
                  const std::vector<Piece>& pieces, int root);

}  // namespace zmpi::mpi::coll
