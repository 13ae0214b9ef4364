#pragma once
#include <cstddef>

#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Bruck's allgather (Bruck, Ho, Kipnis, Upfal & Weathersby, "Efficient algorithms for
// all-to-all communications in multiport message-passing systems", IEEE TPDS 8(11),
// 1997): ceil(log2 p) rounds for any p; in round k rank r sends the first
// min(2^k, p - 2^k) blocks it holds to r - 2^k and appends those of r + 2^k. Blocks are
// kept rotated (this rank's first) and put in rank order at the end. Latency-optimal for
// small blocks when p is not a power of two. On entry rank r's block is in `all`.
void allgatherBruck(Schedule& schedule, char* all, std::size_t block);

}  // namespace zmpi::mpi::coll
