#pragma once
// The int arrays of the topology entry points (dims, periods, index, edges, weights, the
// neighbour lists a query fills), read in and written out with the pointer checked only
// when an element is actually read or written.
#include <algorithm>
#include <vector>

#include "mpi/capi/validate.h"

namespace zmpi::mpi::capi {

// The caller's n values (none for n <= 0, where the pointer may be null).
inline std::vector<int> intArrayArg(const int* values, int n, const char* name) {
  if (n > 0) pointerArg(values, name);
  return n > 0 ? std::vector<int>(values, values + n) : std::vector<int>{};
}

// Copies min(max, values.size()) values; MPI says the caller's array is at least that long.
inline void copyOutInts(const std::vector<int>& values, int max, int* out, const char* name) {
  const int n = std::min(max, static_cast<int>(values.size()));
  if (n > 0) pointerArg(out, name);
  std::copy_n(values.begin(), std::max(n, 0), out);
}

}  // namespace zmpi::mpi::capi
