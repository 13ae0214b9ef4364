#include "mpi/coll/gather_linear.h"

namespace zmpi::mpi::coll {

void gatherLinear(Schedule& s, const char* mine, std::size_t myBytes, char* all, const std::vector<Piece>& pieces,
                  int root) {
  if (s.rank() != root) {
    s.send(root, 0, mine, myBytes);
    return;
  }
  const Piece& own = pieces[static_cast<std::size_t>(root)];
  copyBytes(s, mine, all + own.offset, own.bytes);
  for (int i = 0; i < s.size(); ++i) {
    const Piece& piece = pieces[static_cast<std::size_t>(i)];
    if (i != root) s.recv(i, 0, all + piece.offset, piece.bytes);
  }
}

}  // namespace zmpi::mpi::coll
