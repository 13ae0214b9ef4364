#include "mpi/coll/alltoall_pairwise.h"

namespace zmpi::mpi::coll {

void alltoallPairwise(Schedule& s, const char* send, const std::vector<Piece>& sendPieces, char* recv,
                      const std::vector<Piece>& recvPieces) {
  const int p = s.size();
  const int r = s.rank();
  auto at = [](const std::vector<Piece>& pieces, int rank) { return pieces[static_cast<std::size_t>(rank)]; };
  copyBytes(s, send + at(sendPieces, r).offset, recv + at(recvPieces, r).offset, at(recvPieces, r).bytes);
  for (int k = 1; k < p; ++k) {
    const int to = (r + k) % p;
    const int from = (r - k + p) % p;
    s.recv(from, 0, recv + at(recvPieces, from).offset, at(recvPieces, from).bytes);
    s.send(to, 0, send + at(sendPieces, to).offset, at(sendPieces, to).bytes);
    s.fence();
  }
}

}  // namespace zmpi::mpi::coll
