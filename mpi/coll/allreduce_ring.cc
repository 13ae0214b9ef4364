#include "mpi/coll/allreduce_ring.h"

namespace zmpi::mpi::coll {

void allreduceRing(Schedule& s, const Reduction& reduction, char* acc) {
  const int p = s.size();
  const int r = s.rank();
  if (p == 1) return;
  const std::size_t count = reduction.count();
  const auto parts = static_cast<std::size_t>(p);
  auto first = [&](int chunk) { return chunkStart(count, parts, static_cast<std::size_t>((chunk % p + p) % p)); };
  auto elements = [&](int chunk) {
    const std::size_t c = static_cast<std::size_t>((chunk % p + p) % p);
    return chunkStart(count, parts, c + 1) - chunkStart(count, parts, c);
  };
  auto at = [&](int chunk) { return acc + reduction.offsetOf(first(chunk)); };
  auto bytes = [&](int chunk) { return reduction.spanBytes(elements(chunk)); };
  const int right = (r + 1) % p;
  const int left = (r - 1 + p) % p;

  char* in = s.scratch(reduction.spanBytes((count + parts - 1) / parts));
  for (int k = 0; k < p - 1; ++k) {
    const int out = r - k;
    const int into = r - k - 1;
    s.recv(left, 0, in, bytes(into));
    s.send(right, 0, at(out), bytes(out));
    char* mine = at(into);
    const std::size_t n = elements(into);
    s.local([reduction, in, mine, n] { reduction.combine(in, mine, n); });
  }
  for (int k = 0; k < p - 1; ++k) {
    const int out = r + 1 - k;
    const int into = r - k;
    s.recv(left, 1, at(into), bytes(into));
    s.send(right, 1, at(out), bytes(out));
    s.fence();
  }
}

}  // namespace zmpi::mpi::coll
