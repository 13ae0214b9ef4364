#include "mpi/coll/bcast_scatter_allgather.h"

#include <algorithm>
#include <vector>

#include "mpi/coll/allgather_ring.h"
#include "mpi/coll/bcast_binomial.h"
#include "mpi/coll/layout.h"

namespace zmpi::mpi::coll {

void bcastScatterAllgather(Schedule& s, char* data, std::size_t bytes, int root) {
  const int p = s.size();
  const int v = (s.rank() - root + p) % p;
  const std::size_t chunk = (bytes + static_cast<std::size_t>(p) - 1) / static_cast<std::size_t>(p);
  // Bytes of the pieces of relative ranks [first, last).
  auto range = [&](int first, int last) {
    const std::size_t lo = std::min(static_cast<std::size_t>(first) * chunk, bytes);
    const std::size_t hi = std::min(static_cast<std::size_t>(std::min(last, p)) * chunk, bytes);
    return Piece{static_cast<std::ptrdiff_t>(lo), hi - lo};
  };

  // Scatter: v receives its subtree's pieces from its parent, then hands each child its own.
  const int span = binomialSubtree(v, p);
  if (v != 0) {
    const Piece mine = range(v, v + span);
    s.recv((v - span + root) % p, 0, data + mine.offset, mine.bytes);
    s.fence();
  }
  for (int mask = span / 2; mask > 0; mask /= 2) {
    if (v + mask >= p) continue;
    const Piece child = range(v + mask, v + 2 * mask);
    s.send((v + mask + root) % p, 0, data + child.offset, child.bytes);
  }
  s.fence();

  // Allgather: rank a contributes the piece of relative rank (a - root) mod p.
  std::vector<Piece> pieces(static_cast<std::size_t>(p));
  for (int a = 0; a < p; ++a) {
    const int relative = (a - root + p) % p;
    pieces[static_cast<std::size_t>(a)] = range(relative, relative + 1);
  }
  s.setStepBase(1);
  allgatherRing(s, data, pieces);
  s.setStepBase(0);
}

}  // namespace zmpi::mpi::coll
