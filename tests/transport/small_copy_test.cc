// copySmall: the small-message path's inline copy must copy exactly `bytes` bytes, at any
// alignment, and touch nothing around them.
#include "transport/small_copy.h"

#include <array>
#include <catch2/catch.hpp>
#include <cstdint>

using zmpi::transport::copySmall;

TEST_CASE("copySmall copies exactly the bytes asked for, at every size and alignment", "[copy]") {
  for (std::size_t bytes = 0; bytes <= 40; ++bytes) {
    for (std::size_t offset = 0; offset < 8; ++offset) {
      std::array<uint8_t, 64> source{};
      std::array<uint8_t, 64> destination{};
      for (std::size_t k = 0; k < source.size(); ++k) source[k] = static_cast<uint8_t>(k * 7 + 1);
      destination.fill(0xEE);
      copySmall(destination.data() + offset, source.data() + (7 - offset), bytes);
      for (std::size_t k = 0; k < destination.size(); ++k) {
        const bool inside = k >= offset && k < offset + bytes;
        const uint8_t expected = inside ? source[k - offset + (7 - offset)] : 0xEE;
        INFO("bytes " << bytes << " offset " << offset << " index " << k);
        REQUIRE(destination[k] == expected);
      }
    }
  }
}
