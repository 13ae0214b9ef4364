#pragma once
// Program buffers as the intercommunicator plans (inter.h) move them: bytes straight from
// and into the program's memory where the type is contiguous, else through scratch that
// is packed while planning (the send buffer is the program's until completion, so its
// contents are final) and unpacked by a local action after the receives.
#include <cstddef>
#include <vector>

#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

struct Outgoing {
  const char* data;
  std::size_t bytes;
};

struct Incoming {
  char* data;
  std::size_t bytes;
  void* buffer = nullptr;  // where a staged receive is unpacked; null when received in place
  const Datatype* type = nullptr;
};

// `count` elements of `type` at `buffer`.
Outgoing outgoing(Schedule& s, const void* buffer, std::size_t count, const Datatype& type);
Incoming incoming(Schedule& s, void* buffer, std::size_t count, const Datatype& type);

// Unpacks the staged receives among `received` once the transfers before it are done.
void settle(Schedule& s, const std::vector<Incoming>& received);

// The address of block `index` of `count` elements of `type` from `buffer` (gather's and
// scatter's blocks), or `displacement` elements (the v-forms).
inline const char* blockAt(const void* buffer, std::ptrdiff_t elements, const Datatype& type) {
  return static_cast<const char*>(buffer) + elements * type.extent();
}
inline char* blockAt(void* buffer, std::ptrdiff_t elements, const Datatype& type) {
  return static_cast<char*>(buffer) + elements * type.extent();
}

}  // namespace zmpi::mpi::coll
