#include "mpi/coll/allreduce_recursive_doubling.h"

#include <algorithm>
#include <utility>

#include "mpi/coll/layout.h"

namespace zmpi::mpi::coll {

Fold foldOf(int r, int p) {
  Fold fold{1, 0, -1};
  while (fold.pof2 * 2 <= p) fold.pof2 *= 2;
  fold.rem = p - fold.pof2;
  if (r < 2 * fold.rem) {
    fold.newRank = r % 2 == 1 ? r / 2 : -1;
  } else {
    fold.newRank = r - fold.rem;
  }
  return fold;
}

void foldIn(Schedule& s, const Reduction& reduction, char* acc, int step) {
  const int r = s.rank();
  const Fold fold = foldOf(r, s.size());
  if (r >= 2 * fold.rem) return;
  // A few pieces at a time (Reduction::pieceElements), so the scratch operand stays small.
  const std::size_t count = reduction.count();
  const std::size_t per = reduction.pieceElements(s.segmentBytes());
  char* in = r % 2 == 1 ? s.scratch(reduction.spanBytes(std::min(per, count))) : nullptr;
  for (std::size_t first = 0; first < count; first += per) {
    const std::size_t elements = std::min(per, count - first);
    char* piece = per < count ? acc + reduction.offsetOf(first) : acc;
    if (r % 2 == 0) {
      s.send(r + 1, step, piece, reduction.spanBytes(elements));
    } else {
      s.recv(r - 1, step, in, reduction.spanBytes(elements));
      s.local([reduction, in, piece, elements] { reduction.combine(in, piece, elements); });
    }
    s.fence();
  }
}

void foldOut(Schedule& s, const Reduction& reduction, char* acc, int step) {
  const int r = s.rank();
  const Fold fold = foldOf(r, s.size());
  if (r >= 2 * fold.rem) return;
  if (r % 2 == 1) {
    s.send(r - 1, step, acc, reduction.bytes());
  } else {
    s.recv(r + 1, step, acc, reduction.bytes());
  }
}

void allreduceRecursiveDoubling(Schedule& s, const Reduction& reduction, char* acc) {
  const int r = s.rank();
  const Fold fold = foldOf(r, s.size());
  const std::size_t bytes = reduction.bytes();
  const std::size_t count = reduction.count();
  foldIn(s, reduction, acc, 0);
  int step = 1;
  char* cur = acc;
  if (fold.newRank >= 0) {
    char* other = fold.pof2 > 1 ? s.scratch(bytes) : nullptr;
    for (int mask = 1; mask < fold.pof2; mask *= 2, ++step) {
      const int partner = fold.newRank ^ mask;
      const int peer = fold.rankOf(partner);
      s.recv(peer, step, other, bytes);
      s.send(peer, step, cur, bytes);
      if (partner < fold.newRank) {
        s.local([reduction, other, cur, count] { reduction.combine(other, cur, count); });
      } else {
        s.local([reduction, other, cur, count] { reduction.combine(cur, other, count); });
        std::swap(cur, other);
      }
    }
    copyBytes(s, cur, acc, bytes);
  } else {
    for (int mask = 1; mask < fold.pof2; mask *= 2) ++step;
  }
  s.fence();
  foldOut(s, reduction, acc, step);
}

}  // namespace zmpi::mpi::coll
