#pragma once
#include <cstddef>

#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Scatter + allgather broadcast for large messages (Barnett, Gupta, Payne, Shuler, van de
// Geijn & Watts, "Interprocessor collective communication library (InterCom)", SHPCC
// 1994; as in Thakur, Rabenseifner & Gropp, IJHPCA 2005): the root's data is
// cut into p pieces, scattered down a binomial tree, then gathered everywhere by a ring
// allgather. The root sends about bytes instead of bytes * log2 p; each rank receives
// about 2 * bytes. Any p.
void bcastScatterAllgather(Schedule& schedule, char* data, std::size_t bytes, int root);

}  // namespace zmpi::mpi::coll
