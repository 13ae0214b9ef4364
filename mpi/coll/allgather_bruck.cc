#include "mpi/coll/allgather_bruck.h"

#include <algorithm>

#include "mpi/coll/layout.h"

namespace zmpi::mpi::coll {

void allgatherBruck(Schedule& s, char* all, std::size_t block) {
  const int p = s.size();
  const int r = s.rank();
  if (p == 1) return;
  char* held = s.scratch(static_cast<std::size_t>(p) * block);  // held[j]: rank (r + j) mod p's block
  copyBytes(s, all + static_cast<std::size_t>(r) * block, held, block);
  for (int distance = 1, step = 0; distance < p; distance *= 2, ++step) {
    const auto blocks = static_cast<std::size_t>(std::min(distance, p - distance));
    s.recv((r + distance) % p, step, held + static_cast<std::size_t>(distance) * block, blocks * block);
    s.send((r - distance + p) % p, step, held, blocks * block);
    s.fence();
  }
  const auto head = static_cast<std::size_t>(p - r) * block;
  copyBytes(s, held, all + static_cast<std::size_t>(r) * block, head);
  copyBytes(s, held + head, all, static_cast<std::size_t>(r) * block);
}

}  // namespace zmpi::mpi::coll
