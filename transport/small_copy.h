#pragma once
// memcpy for the small-message path, where most copies are a few bytes: up to 16 bytes are
// moved with two overlapping loads and stores in place, without the call into libc's memcpy
// (its size dispatch is most of the cost of copying an 8-byte payload); longer copies go
// to memcpy.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace zmpi::transport {

inline void copySmall(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0) return;  // an empty payload may come with a null pointer
  auto* to = static_cast<uint8_t*>(destination);
  const auto* from = static_cast<const uint8_t*>(source);
  if (bytes >= 8 && bytes <= 16) {
    uint64_t head, tail;
    std::memcpy(&head, from, 8);
    std::memcpy(&tail, from + bytes - 8, 8);
    std::memcpy(to, &head, 8);
    std::memcpy(to + bytes - 8, &tail, 8);
  } else if (bytes >= 4 && bytes < 8) {
    uint32_t head, tail;
    std::memcpy(&head, from, 4);
    std::memcpy(&tail, from + bytes - 4, 4);
    std::memcpy(to, &head, 4);
    std::memcpy(to + bytes - 4, &tail, 4);
  } else if (bytes < 4) {
    const uint8_t first = from[0], middle = from[bytes / 2], last = from[bytes - 1];
    to[0] = first;
    to[bytes / 2] = middle;
    to[bytes - 1] = last;
  } else if (bytes > 16) {
    std::memcpy(to, from, bytes);
  }
}

}  // namespace zmpi::transport
