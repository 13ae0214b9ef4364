// PayloadPool: payloads of pooled sizes come back to their class when released and are
// handed out again; copies are exact; sizes outside the pool and a full class go to malloc.
#include "transport/payload_pool.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

using zmpi::transport::PayloadPool;

TEST_CASE("a released pooled payload is cached and handed out again for its size class", "[pool]") {
  const std::size_t before = PayloadPool::cachedBuffers();
  const void* first = nullptr;
  {
    zmq::message_t message = PayloadPool::take(20 * 1024);  // the 32 KiB class
    REQUIRE(message.size() == 20 * 1024);
    first = message.data();
  }
  REQUIRE(PayloadPool::cachedBuffers() == before + 1);
  zmq::message_t again = PayloadPool::take(32 * 1024);  // same class
  REQUIRE(again.data() == first);
  REQUIRE(again.size() == 32 * 1024);
  REQUIRE(PayloadPool::cachedBuffers() == before);
  zmq::message_t other = PayloadPool::take(33 * 1024);  // the next class: not that buffer
  REQUIRE(other.data() != first);
}

TEST_CASE("copyOf copies exactly, pooled or not", "[pool]") {
  for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4096}, std::size_t{70000},
                            PayloadPool::kMaxBytes, PayloadPool::kMaxBytes + 1}) {
    std::vector<uint8_t> source(bytes);
    for (std::size_t k = 0; k < bytes; ++k) source[k] = static_cast<uint8_t>(k * 13 + 5);
    const zmq::message_t copy = PayloadPool::copyOf(source.data(), bytes);
    INFO("bytes " << bytes);
    REQUIRE(copy.size() == bytes);
    const auto* data = static_cast<const uint8_t*>(copy.data());
    REQUIRE(std::vector<uint8_t>(data, data + bytes) == source);
  }
}

TEST_CASE("sizes outside the pool are not cached, and a class keeps at most its share", "[pool]") {
  const std::size_t before = PayloadPool::cachedBuffers();
  { zmq::message_t small = PayloadPool::take(PayloadPool::kMinBytes - 1); }
  { zmq::message_t large = PayloadPool::take(PayloadPool::kMaxBytes + 1); }
  REQUIRE(PayloadPool::cachedBuffers() == before);

  const std::size_t fit = PayloadPool::kCachedBytesPerClass / PayloadPool::kMaxBytes;
  {
    std::vector<zmq::message_t> held;
    for (std::size_t k = 0; k < fit + 3; ++k) held.push_back(PayloadPool::take(PayloadPool::kMaxBytes));
  }
  REQUIRE(PayloadPool::cachedBuffers() == before + fit);
}
