#include "mpi/coll/allgather_ring.h"

namespace zmpi::mpi::coll {

void allgatherRing(Schedule& s, char* area, const std::vector<Piece>& pieces) {
  const int p = s.size();
  const int r = s.rank();
  const int right = (r + 1) % p;
  const int left = (r - 1 + p) % p;
  for (int k = 0; k < p - 1; ++k) {
    const Piece& out = pieces[static_cast<std::size_t>((r - k + p) % p)];
    const Piece& in = pieces[static_cast<std::size_t>((r - k - 1 + 2 * p) % p)];
    s.recv(left, 0, area + in.offset, in.bytes);
    s.send(right, 0, area + out.offset, out.bytes);
    s.fence();
  }
}

}  // namespace zmpi::mpi::coll
