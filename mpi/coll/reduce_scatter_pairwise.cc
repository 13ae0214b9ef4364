#include "mpi/coll/reduce_scatter_pairwise.h"

#include "mpi/coll/layout.h"

namespace zmpi::mpi::coll {

void reduceScatterPairwise(Schedule& s, const Reduction& whole, const char* input, char* result,
                           const std::vector<std::size_t>& counts) {
  const int p = s.size();
  const int r = s.rank();
  std::vector<std::size_t> first(counts.size() + 1, 0);
  for (std::size_t i = 0; i < counts.size(); ++i) first[i + 1] = first[i] + counts[i];
  auto block = [&](int rank) { return input + whole.offsetOf(first[static_cast<std::size_t>(rank)]); };
  auto bytes = [&](int rank) { return whole.spanBytes(counts[static_cast<std::size_t>(rank)]); };
  const std::size_t mine = counts[static_cast<std::size_t>(r)];

  copyBytes(s, block(r), result, bytes(r));
  char* in = p > 1 ? s.scratch(bytes(r)) : nullptr;
  for (int k = 1; k < p; ++k) {
    const int to = (r + k) % p;
    const int from = (r - k + p) % p;
    s.recv(from, 0, in, bytes(r));
    s.send(to, 0, block(to), bytes(to));
    s.local([whole, in, result, mine] { whole.combine(in, result, mine); });
  }
}

}  // namespace zmpi::mpi::coll
