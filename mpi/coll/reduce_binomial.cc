#include "mpi/coll/reduce_binomial.h"

#include "mpi/coll/bcast_binomial.h"
#include "mpi/coll/layout.h"

namespace zmpi::mpi::coll {

void reduceBinomial(Schedule& s, const Reduction& reduction, const char* input, char* result, int root) {
  const int p = s.size();
  const int r = s.rank();
  const std::size_t bytes = reduction.bytes();
  const std::size_t count = reduction.count();
  const int treeRoot = reduction.commutative() ? root : 0;
  const int v = (r - treeRoot + p) % p;
  const int span = binomialSubtree(v, p);

  // The partial result starts as the input and then ping-pongs between two buffers: a
  // child's partial is received into the free one and becomes acc op child in place.
  const char* acc = input;
  char* buffers[2] = {nullptr, nullptr};
  int free = 0;
  for (int mask = 1; mask < span && v + mask < p; mask *= 2) {
    if (buffers[free] == nullptr) buffers[free] = s.scratch(bytes);
    char* in = buffers[free];
    s.recv((v + mask + treeRoot) % p, 0, in, bytes);
    s.local([reduction, acc, in, count] { reduction.combine(acc, in, count); });
    acc = in;
    free ^= 1;
  }
  s.fence();
  if (v != 0) {
    s.send((v - span + treeRoot) % p, 0, acc, bytes);
    s.fence();
  } else if (treeRoot == root) {
    copyBytes(s, acc, result, bytes);
  } else {
    s.send(root, 1, acc, bytes);
  }
  if (r == root && treeRoot != root) s.recv(treeRoot, 1, result, bytes);
}

}  // namespace zmpi::mpi::coll
