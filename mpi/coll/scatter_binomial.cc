#include "mpi/coll/scatter_binomial.h"

#include <algorithm>

#include "mpi/coll/bcast_binomial.h"
#include "mpi/coll/layout.h"

namespace zmpi::mpi::coll {

void scatterBinomial(Schedule& s, const char* all, char* mine, std::size_t block, int root) {
  const int p = s.size();
  const int v = (s.rank() - root + p) % p;
  const int span = binomialSubtree(v, p);
  const auto blocks = static_cast<std::size_t>(std::min(span, p - v));
  const char* buf = all;
  if (v == 0 && root != 0) {
    // Relative-rank order: relative rank j is rank (j + root) mod p.
    char* rotated = s.scratch(static_cast<std::size_t>(p) * block);
    const auto head = static_cast<std::size_t>(p - root) * block;
    copyBytes(s, all + static_cast<std::size_t>(root) * block, rotated, head);
    copyBytes(s, all, rotated + head, static_cast<std::size_t>(root) * block);
    buf = rotated;
  } else if (v != 0) {
    char* into = blocks == 1 ? mine : s.scratch(blocks * block);
    s.recv((v - span + root) % p, 0, into, blocks * block);
    s.fence();
    buf = into;
  }
  for (int mask = span / 2; mask > 0; mask /= 2) {
    if (v + mask >= p) continue;
    const auto childBlocks = static_cast<std::size_t>(std::min(mask, p - v - mask));
    s.send((v + mask + root) % p, 0, buf + static_cast<std::size_t>(mask) * block, childBlocks * block);
  }
  copyBytes(s, buf, mine, block);
}

}  // namespace zmpi::mpi::coll
