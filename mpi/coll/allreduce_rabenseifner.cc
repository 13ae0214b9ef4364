#include "mpi/coll/allreduce_rabenseifner.h"

#include <algorithm>
#include <cstring>

#include "mpi/coll/allreduce_recursive_doubling.h"

namespace zmpi::mpi::coll {

void allreduceRabenseifner(Schedule& s, const Reduction& reduction, char* acc) {
  const Fold fold = foldOf(s.rank(), s.size());
  const std::size_t count = reduction.count();
  const auto parts = static_cast<std::size_t>(fold.pof2);
  // The elements, span offset and span bytes of chunks [lo, hi) of pof2 equal chunks.
  struct Range {
    std::size_t first, elements, offset, bytes;
  };
  auto range = [&](int lo, int hi) {
    const std::size_t first = chunkStart(count, parts, static_cast<std::size_t>(lo));
    const std::size_t elements = chunkStart(count, parts, static_cast<std::size_t>(hi)) - first;
    return Range{first, elements, reduction.offsetOf(first), reduction.spanBytes(elements)};
  };

  // Part j of a range: `per` elements from its j-th; empty past its end.
  const std::size_t per = reduction.pieceElements(s.segmentBytes());
  auto piece = [&](const Range& whole, std::size_t j) {
    const std::size_t skip = std::min(whole.elements, j * per);
    const std::size_t elements = std::min(per, whole.elements - skip);
    return Range{whole.first + skip, elements, reduction.offsetOf(whole.first + skip), reduction.spanBytes(elements)};
  };

  foldIn(s, reduction, acc, 0);
  int step = 1;
  if (fold.newRank >= 0 && fold.pof2 > 1) {
    // The partner's half arrives and is combined `per` elements at a time, one round each,
    // so scratch holds `per` elements, not the larger first half.
    char* in = s.scratch(reduction.spanBytes(std::min(per, (count + 1) / 2)));
    int lo = 0, hi = fold.pof2;
    // Reduce-scatter: halve the chunk range each round, keeping the half named by the bit.
    for (int mask = 1; mask < fold.pof2; mask *= 2, ++step) {
      const int partner = fold.newRank ^ mask;
      const int peer = fold.rankOf(partner);
      const int mid = (lo + hi) / 2;
      const bool lower = (fold.newRank & mask) == 0;
      const Range keep = lower ? range(lo, mid) : range(mid, hi);
      const Range give = lower ? range(mid, hi) : range(lo, mid);
      // The partner's give is our keep and vice versa: both cut max(keep, give) alike.
      const std::size_t pieces = std::max<std::size_t>(1, (std::max(keep.elements, give.elements) + per - 1) / per);
      for (std::size_t j = 0; j < pieces; ++j) {
        const Range k = piece(keep, j);
        const Range g = piece(give, j);
        s.recv(peer, step, in, k.bytes);
        s.send(peer, step, acc + g.offset, g.bytes);
        char* mine = acc + k.offset;
        if (k.elements == 0) {
          s.fence();
        } else if (partner < fold.newRank) {
          s.local([reduction, in, mine, k] { reduction.combine(in, mine, k.elements); });
        } else {
          s.local([reduction, in, mine, k] {
            reduction.combine(mine, in, k.elements);
            std::memcpy(mine, in, k.bytes);
          });
        }
      }
      if (lower) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    // Allgather: retrace the halving backwards, swapping ranges with the same partners.
    for (int mask = fold.pof2 / 2; mask > 0; mask /= 2, ++step) {
      const int peer = fold.rankOf(fold.newRank ^ mask);
      const int width = hi - lo;
      const bool lower = (fold.newRank & mask) == 0;
      const Range mine = range(lo, hi);
      const Range theirs = lower ? range(hi, hi + width) : range(lo - width, lo);
      s.recv(peer, step, acc + theirs.offset, theirs.bytes);
      s.send(peer, step, acc + mine.offset, mine.bytes);
      s.fence();
      if (lower) {
        hi += width;
      } else {
        lo -= width;
      }
    }
  } else {
    for (int mask = 1; mask < fold.pof2; mask *= 2) step += 2;
  }
  s.fence();
  foldOut(s, reduction, acc, step);
}

}  // namespace zmpi::mpi::coll
