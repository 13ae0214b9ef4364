// OrderGate (mpi/core/order_gate.h): one sender's numbered messages reach the engine in
// number order whichever of two threads brings them, early ones wait for their
// predecessors, and a repeated number is dropped.
#include "mpi/core/order_gate.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "transport/latch.h"

using zmpi::mpi::OrderGate;
using zmpi::transport::WireMessage;

namespace {

// A message that names its own number in the header (and carries it as payload bytes too,
// so that holding it must keep its payload).
WireMessage numberedMessage(uint64_t number) {
  WireMessage message;
  message.header.payloadBytes = sizeof number;
  std::memcpy(message.header.envelope.data(), &number, sizeof number);
  message.payload = zmq::message_t(&number, sizeof number);
  return message;
}

uint64_t numberOf(const WireMessage& message) {
  uint64_t number;
  std::memcpy(&number, message.data(), sizeof number);
  return number;
}

}  // namespace

TEST_CASE("an order gate hands messages over in number order", "[order_gate]") {
  OrderGate gate;
  std::vector<uint64_t> seen;
  auto deliver = [&](WireMessage&& message) { seen.push_back(numberOf(message)); };
  CHECK(gate.pass(3, numberedMessage(3), deliver) == OrderGate::Outcome::Held);
  CHECK(gate.pass(2, numberedMessage(2), deliver) == OrderGate::Outcome::Held);
  CHECK(seen.empty());
  CHECK(gate.heldCount() == 2);
  CHECK(gate.pass(1, numberedMessage(1), deliver) == OrderGate::Outcome::Delivered);
  CHECK(seen == std::vector<uint64_t>{1, 2, 3});
  CHECK(gate.heldCount() == 0);
  CHECK(gate.pass(4, numberedMessage(4), deliver) == OrderGate::Outcome::Delivered);
  CHECK(gate.earlyCount() == 2);
  SECTION("a number seen before is dropped") {
    CHECK(gate.pass(2, numberedMessage(2), deliver) == OrderGate::Outcome::Repeated);
    CHECK(gate.pass(6, numberedMessage(6), deliver) == OrderGate::Outcome::Held);
    CHECK(gate.pass(6, numberedMessage(6), deliver) == OrderGate::Outcome::Repeated);
    CHECK(gate.pass(5, numberedMessage(5), deliver) == OrderGate::Outcome::Delivered);
    CHECK(seen == std::vector<uint64_t>{1, 2, 3, 4, 5, 6});
  }
  SECTION("a hand-over that throws leaves the gate usable") {
    CHECK(gate.pass(6, numberedMessage(6), deliver) == OrderGate::Outcome::Held);
    bool thrown = false;
    try {
      gate.pass(5, numberedMessage(5), [](WireMessage&&) { throw std::runtime_error("engine refused"); });
    } catch (const std::runtime_error&) {
      thrown = true;
    }
    CHECK(thrown);
    // 5 was taken (and lost to the throw); 6 still waits and goes with the next arrival.
    CHECK(gate.pass(7, numberedMessage(7), deliver) == OrderGate::Outcome::Delivered);
    CHECK(seen == std::vector<uint64_t>{1, 2, 3, 4, 6, 7});
  }
}

TEST_CASE("a message arriving while another thread hands over waits for it", "[order_gate]") {
  OrderGate gate;
  std::vector<uint64_t> seen;
  zmpi::transport::Latch inside(1), release(1);
  // Thread A delivers 1 and stays inside the hand-over until B has passed 2.
  std::thread a([&] {
    gate.pass(1, numberedMessage(1), [&](WireMessage&& message) {
      seen.push_back(numberOf(message));
      if (numberOf(message) == 1) {
        inside.countDown();
        release.wait();
      }
    });
  });
  inside.wait();
  // 2 is next in order, but A is still handing 1 over: B leaves it to A.
  CHECK(gate.pass(2, numberedMessage(2), [&](WireMessage&&) { FAIL("B handed a message over"); }) ==
        OrderGate::Outcome::Held);
  release.countDown();
  a.join();
  CHECK(seen == std::vector<uint64_t>{1, 2});
}

TEST_CASE("two threads bringing interleaved numbers deliver every one once, in order", "[order_gate]") {
  OrderGate gate;
  constexpr uint64_t kCount = 20000;
  std::vector<uint64_t> seen;
  std::mutex seenMutex;  // deliveries never overlap; the lock only makes that checkable
  auto deliver = [&](WireMessage&& message) {
    std::unique_lock lock(seenMutex, std::try_to_lock);
    if (!lock.owns_lock()) throw std::logic_error("two hand-overs at once");
    seen.push_back(numberOf(message));
  };
  // Odd numbers on one thread, even on the other (the two channels of a pair).
  auto bring = [&](uint64_t first) {
    for (uint64_t n = first; n <= kCount; n += 2) gate.pass(n, numberedMessage(n), deliver);
  };
  std::thread odd(bring, 1), even(bring, 2);
  odd.join();
  even.join();
  REQUIRE(seen.size() == kCount);
  for (uint64_t i = 0; i < kCount; ++i) REQUIRE(seen[i] == i + 1);
  CHECK(gate.heldCount() == 0);
}
