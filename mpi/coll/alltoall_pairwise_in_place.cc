#include "mpi/coll/alltoall_pairwise_in_place.h"

#include <algorithm>
#include <cstring>

namespace zmpi::mpi::coll {

int tournamentRounds(int size) { return size % 2 == 1 ? size : size - 1; }

int tournamentPeer(int rank, int size, int round) {
  if (size % 2 == 1) return ((round - rank) % size + size) % size;
  const int n = size - 1;
  if (rank == n) return (round * (size / 2)) % n;  // the r with 2 r = round (mod n)
  const int peer = ((round - rank) % n + n) % n;
  return peer == rank ? n : peer;
}

void alltoallPairwiseInPlace(Schedule& s, char* data, const std::vector<Piece>& pieces, std::size_t chunk) {
  const int p = s.size();
  const int r = s.rank();
  std::size_t largest = 0;
  for (int q = 0; q < p; ++q) {
    if (q != r) largest = std::max(largest, pieces[static_cast<std::size_t>(q)].bytes);
  }
  if (largest == 0) return;
  const std::size_t step = chunk == 0 ? largest : std::min(chunk, largest);
  char* temp = s.scratch(step);
  for (int k = 0; k < tournamentRounds(p); ++k) {
    const int q = tournamentPeer(r, p, k);
    if (q == r) continue;
    // Both partners name the same byte count (matching type signatures), so they cut it
    // into the same chunks.
    const Piece& block = pieces[static_cast<std::size_t>(q)];
    for (std::size_t done = 0; done < block.bytes; done += step) {
      const std::size_t n = std::min(step, block.bytes - done);
      char* at = data + block.offset + static_cast<std::ptrdiff_t>(done);
      s.local([temp, at, n] { std::memcpy(temp, at, n); });
      s.recv(q, 0, at, n);
      s.send(q, 0, temp, n);
    }
  }
}

}  // namespace zmpi::mpi::coll
