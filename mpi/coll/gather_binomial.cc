#include "mpi/coll/gather_binomial.h"

#include <algorithm>

#include "mpi/coll/bcast_binomial.h"
#include "mpi/coll/layout.h"

namespace zmpi::mpi::coll {

void gatherBinomial(Schedule& s, const char* mine, char* all, std::size_t block, int root) {
  const int p = s.size();
  const int v = (s.rank() - root + p) % p;
  const int span = binomialSubtree(v, p);
  const auto blocks = static_cast<std::size_t>(std::min(span, p - v));
  if (v != 0 && blocks == 1) {
    s.send((v - span + root) % p, 0, mine, block);
    return;
  }
  // The subtree's blocks in relative-rank order; at root 0 that is already rank order.
  char* buf = (v == 0 && root == 0) ? all : s.scratch(blocks * block);
  copyBytes(s, mine, buf, block);
  for (int mask = 1; mask < span && v + mask < p; mask *= 2) {
    const auto childBlocks = static_cast<std::size_t>(std::min(mask, p - v - mask));
    s.recv((v + mask + root) % p, 0, buf + static_cast<std::size_t>(mask) * block, childBlocks * block);
  }
  s.fence();
  if (v != 0) {
    s.send((v - span + root) % p, 0, buf, blocks * block);
  } else if (root != 0) {
    // Relative rank j is rank (j + root) mod p.
    const auto head = static_cast<std::size_t>(p - root) * block;
    copyBytes(s, buf, all + static_cast<std::size_t>(root) * block, head);
    copyBytes(s, buf + head, all, static_cast<std::size_t>(root) * block);
  }
}

}  // namespace zmpi::mpi::coll
