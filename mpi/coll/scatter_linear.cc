#include "mpi/coll/scatter_linear.h"

namespace zmpi::mpi::coll {

void scatterLinear(Schedule& s, const char* all, const std::vector<Piece>& pieces, char* mine, std::size_t myBytes,
                   int root) {
  if (s.rank() != root) {
    s.recv(root, 0, mine, myBytes);
    return;
  }
  const Piece& own = pieces[static_cast<std::size_t>(root)];
  copyBytes(s, all + own.offset, mine, own.bytes);
  for (int i = 0; i < s.size(); ++i) {
    const Piece& piece = pieces[static_cast<std::size_t>(i)];
    if (i != root) s.send(i, 0, all + piece.offset, piece.bytes);
  }
}

}  // namespace zmpi::mpi::coll
