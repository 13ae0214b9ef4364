#include "mpi/coll/scan_recursive_doubling.h"

#include <cstring>
#include <utility>

#include "mpi/coll/layout.h"

namespace zmpi::mpi::coll {
namespace {

void prefix(Schedule& s, const Reduction& reduction, const char* input, char* result, bool inclusive) {
  const int p = s.size();
  const int r = s.rank();
  const std::size_t bytes = reduction.bytes();
  const std::size_t count = reduction.count();
  if (inclusive) copyBytes(s, input, result, bytes);
  if (p == 1) return;
  // `total` is the reduction over this rank's current block of ranks; it ping-pongs with
  // `in` when a higher block is folded in on the right.
  char* total = s.scratch(bytes);
  char* in = s.scratch(bytes);
  copyBytes(s, input, total, bytes);
  bool haveResult = inclusive;
  for (int mask = 1, step = 0; mask < p; mask *= 2, ++step) {
    const int partner = r ^ mask;
    if (partner >= p) continue;
    s.recv(partner, step, in, bytes);
    s.send(partner, step, total, bytes);
    if (partner < r) {
      const bool first = !haveResult;
      s.local([reduction, in, total, result, count, bytes, first] {
        if (first) {
          std::memcpy(result, in, bytes);
        } else {
          reduction.combine(in, result, count);
        }
        reduction.combine(in, total, count);
      });
      haveResult = true;
    } else {
      s.local([reduction, in, total, count] { reduction.combine(total, in, count); });
      std::swap(total, in);
    }
  }
}

}  // namespace

void scanRecursiveDoubling(Schedule& s, const Reduction& reduction, const char* input, char* result) {
  prefix(s, reduction, input, result, true);
}

void exscanRecursiveDoubling(Schedule& s, const Reduction& reduction, const char* input, char* result) {
  prefix(s, reduction, input, result, false);
}

}  // namespace zmpi::mpi::coll
