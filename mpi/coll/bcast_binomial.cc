#include "mpi/coll/bcast_binomial.h"

namespace zmpi::mpi::coll {

int binomialSubtree(int v, int p) {
  if (v != 0) return v & -v;
  int span = 1;
  while (span < p) span *= 2;
  return span;
}

void bcastBinomial(Schedule& s, char* data, std::size_t bytes, int root) {
  const int p = s.size();
  const int v = (s.rank() - root + p) % p;
  const int span = binomialSubtree(v, p);
  if (v != 0) {
    s.recv((v - span + root) % p, 0, data, bytes);
    s.fence();
  }
  for (int mask = span / 2; mask > 0; mask /= 2) {
    if (v + mask < p) s.send((v + mask + root) % p, 0, data, bytes);
  }
}

}  // namespace zmpi::mpi::coll
