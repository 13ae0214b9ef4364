#pragma once
// Shared by the rank-endpoint fuzz targets: turns fuzzer bytes into the zmq frames of one
// received message, and a check that stops the fuzzer (abort) when an invariant breaks.
//   byte 0: low two bits = number of frames (0..3), the rest selects the target's path;
//   then for every frame but the last a 2-byte little-endian length (clamped to what is
//   left) and that many bytes; the last frame takes the rest.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <zmq.hpp>

namespace zmpi::fuzz {

struct FuzzInput {
  uint8_t selector = 0;  // byte 0 >> 2
  std::vector<zmq::message_t> frames;
};

inline FuzzInput splitFrames(const uint8_t* data, size_t size) {
  FuzzInput input;
  if (size == 0) return input;
  const int count = data[0] & 3;
  input.selector = static_cast<uint8_t>(data[0] >> 2);
  ++data;
  --size;
  for (int i = 0; i < count; ++i) {
    size_t length = size;
    if (i + 1 < count) {
      length = size >= 2 ? static_cast<size_t>(data[0] | (data[1] << 8)) : 0;
      const size_t prefix = size >= 2 ? 2 : size;
      data += prefix;
      size -= prefix;
      if (length > size) length = size;
    }
    input.frames.emplace_back(data, length);
    data += length;
    size -= length;
  }
  return input;
}

#define ZMPI_FUZZ_CHECK(condition)                                                           \
  do {                                                                                       \
    if (!(condition)) {                                                                      \
      std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                          \
    }                                                                                        \
  } while (0)

}  // namespace zmpi::fuzz
