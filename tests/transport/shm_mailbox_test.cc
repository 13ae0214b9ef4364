// The same-host shared-memory mailbox: order and content through fragments and wrap-around,
// concurrent senders, the doorbell rule, and what the segment leaves in /dev/shm.
#include "transport/shm_mailbox.h"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <latch>
#include <random>
#include <thread>

#include "transport/errors.h"

using namespace zmpi::transport;

namespace {

std::string uniqueName(const char* what) { return "/zmpi-test-" + std::string(what) + "-" + std::to_string(getpid()); }

constexpr uint64_t kJob = 0x1234abcd5678ef01;

WireHeader headerFor(uint16_t kind, size_t bytes) {
  WireHeader header;
  header.kind = kind;
  header.jobHash = kJob;
  header.payloadBytes = bytes;
  return header;
}

// Message i's header: its envelope's first half always set; its second half zero (the
// compact form, for a message that fits one record) for two messages in three.
WireHeader numberedHeader(int i, size_t bytes) {
  WireHeader header = headerFor(static_cast<uint16_t>(i % 1000 + 1), bytes);
  for (size_t k = 0; k < kEnvelopeBytes / 2; ++k) header.envelope[k] = static_cast<uint8_t>(i + k);
  if (i % 3 == 0) header.envelope[kEnvelopeBytes - 1] = 0x5a;
  return header;
}

// Drains every message now in the inbox's rings; how many there were.
int drainedCount(ShmInbox& inbox) {
  int count = 0;
  inbox.drain([&](int, WireMessage&&) { ++count; });
  return count;
}

// Sleeps once on the inbox's rings (it must have begun to sleep) unless `skip`; whether the
// sleep ended by a wake-up. One that never comes leaves the sleep to its timeout -- far
// longer than any loaded machine needs for one futex call -- and the result is false.
bool sleptAndWasWoken(ShmInbox& inbox, bool skip = false) {
  const auto start = std::chrono::steady_clock::now();
  if (!skip) inbox.sleep(std::chrono::seconds(20));
  return std::chrono::steady_clock::now() - start < std::chrono::seconds(15);
}

}  // namespace

TEST_CASE("messages of any size arrive whole and in order from each sender", "[shm]") {
  const int senders = 2;
  const int perSender = 300;
  ShmInbox inbox(uniqueName("order"), senders + 1, 16 * 1024, kJob);  // small ring: many wraps and fragments
  std::vector<std::thread> producers;
  for (int s = 1; s <= senders; ++s) {
    producers.emplace_back([&, s] {
      ShmOutbox outbox(inbox.name(), s);
      std::mt19937 random(static_cast<unsigned>(s));
      for (int i = 0; i < perSender; ++i) {
        // Half of them small (one record), the others up to three rings' worth.
        const size_t bytes = i % 2 ? random() % 100 : random() % 50000;
        std::vector<uint8_t> payload(bytes, static_cast<uint8_t>(i));
        outbox.send(numberedHeader(i, bytes), payload.data(), bytes);
        while (outbox.hasQueued()) outbox.flush();  // the test's own "progress thread"
      }
    });
  }
  std::vector<int> next(senders + 1, 0);
  int received = 0;
  bool intact = true;
  while (received < senders * perSender) {
    inbox.drain([&](int sender, WireMessage&& message) {
      const int i = next[static_cast<size_t>(sender)]++;
      const WireHeader expected = numberedHeader(i, message.size());
      intact &= std::memcmp(&message.header, &expected, sizeof expected) == 0;  // kind, job and envelope too
      intact &= message.size() == message.header.payloadBytes;
      const auto* bytes = static_cast<const uint8_t*>(message.data());
      for (size_t k = 0; k < message.size(); k += 997) intact &= bytes[k] == static_cast<uint8_t>(i);
      ++received;
    });
  }
  for (auto& producer : producers) producer.join();
  CHECK(intact);
  CHECK(next[1] == perSender);
  CHECK(next[2] == perSender);
  CHECK_FALSE(inbox.hasData());
}

TEST_CASE("a frame that must wait is kept, not copied, and released once wholly written", "[shm]") {
  ShmInbox inbox(uniqueName("frame"), 2, 16 * 1024, kJob);
  ShmOutbox outbox(inbox.name(), 1);
  const size_t bytes = 100 * 1000;  // six rings' worth
  std::vector<uint8_t> source(bytes);
  for (size_t k = 0; k < bytes; ++k) source[k] = static_cast<uint8_t>(k * 7);
  bool released = false;
  zmq::message_t frame(
      source.data(), bytes, [](void*, void* hint) { *static_cast<bool*>(hint) = true; }, &released);
  outbox.send(headerFor(9, bytes), std::move(frame));
  REQUIRE(outbox.hasQueued());
  CHECK_FALSE(released);  // the rest waits in the sender's own buffer
  // Changing the source now shows in what arrives: the queue refers to it, holds no copy.
  for (size_t k = bytes / 2; k < bytes; ++k) source[k] = static_cast<uint8_t>(k * 7 + 1);
  std::vector<uint8_t> received;
  while (received.empty()) {
    inbox.drain([&](int, WireMessage&& message) {
      const auto* data = static_cast<const uint8_t*>(message.data());
      received.assign(data, data + message.size());
    });
    outbox.flush();
  }
  CHECK(released);
  CHECK_FALSE(outbox.hasQueued());
  REQUIRE(received.size() == bytes);
  CHECK(received == source);
}

TEST_CASE("a placed message is reassembled straight into the buffer its receiver names", "[shm]") {
  ShmInbox inbox(uniqueName("place"), 2, 16 * 1024, kJob);
  ShmOutbox outbox(inbox.name(), 1);
  const size_t big = 50 * 1000, small = 100;
  std::vector<uint8_t> destination(big, 0);
  std::vector<uint16_t> asked;
  inbox.setPlacement([&](int sender, const WireHeader& header) -> void* {
    CHECK(sender == 1);
    asked.push_back(header.kind);
    return header.kind == 1 ? destination.data() : nullptr;  // kind 2: a buffer of its own
  });
  std::vector<uint8_t> payload(big);
  for (size_t k = 0; k < big; ++k) payload[k] = static_cast<uint8_t>(k * 3 + 1);
  outbox.send(headerFor(1, big), payload.data(), big);
  outbox.send(headerFor(2, big), payload.data(), big);
  outbox.send(headerFor(3, small), payload.data(), small);  // one record: never placed
  std::vector<WireMessage> delivered;
  while (delivered.size() < 3) {
    inbox.drain([&](int, WireMessage&& message) {
      message.own();  // kept past the handler
      delivered.push_back(std::move(message));
    });
    outbox.flush();
  }
  CHECK(asked == std::vector<uint16_t>{1, 2});
  CHECK(delivered[0].placed);
  CHECK(delivered[0].size() == 0);
  CHECK(destination == payload);
  CHECK_FALSE(delivered[1].placed);
  REQUIRE(delivered[1].payload.size() == big);
  CHECK(std::memcmp(delivered[1].payload.data(), payload.data(), big) == 0);
  CHECK_FALSE(delivered[2].placed);
  CHECK(delivered[2].payload.size() == small);
}

TEST_CASE("the doorbell is rung once when nobody polls, never while someone does", "[shm]") {
  ShmInbox inbox(uniqueName("doorbell"), 2, 64 * 1024, kJob);
  ShmOutbox outbox(inbox.name(), 1);
  const WireHeader header = headerFor(1, 0);
  // The owner starts out counted as a poller (its progress thread is awake).
  CHECK_FALSE(outbox.send(header, nullptr, 0));
  inbox.leavePolling();
  CHECK(outbox.send(header, nullptr, 0));        // idle receiver: ring
  CHECK_FALSE(outbox.send(header, nullptr, 0));  // already rung, not yet answered
  inbox.clearDoorbell();
  CHECK(outbox.send(header, nullptr, 0));
  inbox.clearDoorbell();
  inbox.enterPolling();
  CHECK_FALSE(outbox.send(header, nullptr, 0));
  CHECK(drainedCount(inbox) == 5);
}

TEST_CASE("a receiver sleeping on its rings is woken by the sender's futex, not the doorbell", "[shm]") {
  // Region-event rule 6 for the sleeper: it checks the rings after arming, sleeps, and the
  // sender's write wakes it with the message already readable; no doorbell is asked for.
  ShmInbox inbox(uniqueName("sleeper"), 2, 64 * 1024, kJob);
  inbox.leavePolling();
  ShmOutbox outbox(inbox.name(), 1);
  std::latch armed(1);
  std::atomic<bool> wokenEarly{false};
  std::atomic<bool> sawData{false};
  std::thread sleeper([&] {
    inbox.beginSleep();
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const bool already = inbox.hasData();
    armed.count_down();
    wokenEarly.store(sleptAndWasWoken(inbox, already));
    inbox.endSleep();
    sawData.store(inbox.hasData());
  });
  armed.wait();
  CHECK(inbox.sleepers() == 1);
  const char text[] = "wake up";
  CHECK_FALSE(outbox.send(headerFor(3, sizeof text), text, sizeof text));  // no doorbell: the futex
  sleeper.join();
  CHECK(wokenEarly.load());
  CHECK(sawData.load());
  CHECK(inbox.sleepers() == 0);
  // Nobody sleeps or polls any more: the next write asks for the doorbell again.
  CHECK(outbox.send(headerFor(3, sizeof text), text, sizeof text));
  CHECK(drainedCount(inbox) == 2);
}

TEST_CASE("the receiver's own process wakes its ring sleepers, and a poller keeps senders from them", "[shm]") {
  ShmInbox inbox(uniqueName("wake-own"), 2, 64 * 1024, kJob);
  ShmOutbox outbox(inbox.name(), 1);
  // A poller (the owner starts as one) and a sleeper: the sender leaves both alone.
  inbox.beginSleep();
  CHECK_FALSE(outbox.send(headerFor(1, 0), nullptr, 0));
  inbox.endSleep();
  inbox.leavePolling();
  std::latch armed(1);
  std::atomic<bool> wokenEarly{false};
  std::thread sleeper([&] {
    inbox.beginSleep();
    armed.count_down();
    wokenEarly.store(sleptAndWasWoken(inbox));
    inbox.endSleep();
  });
  armed.wait();
  inbox.wakeSleepers();
  sleeper.join();
  CHECK(wokenEarly.load());
  inbox.wakeSleepers();  // nobody sleeps: nothing to do
  CHECK(drainedCount(inbox) == 1);
}

TEST_CASE("each sender reads the credit its receiver published for it, and only that", "[shm]") {
  ShmInbox inbox(uniqueName("credit"), 3, 64 * 1024, kJob);
  ShmOutbox first(inbox.name(), 1);
  ShmOutbox second(inbox.name(), 2);
  CHECK(first.credit() == 0);  // a fresh segment: nothing published yet
  inbox.publishCredit(1, 12345);
  CHECK(first.credit() == 12345);
  CHECK(second.credit() == 0);
  inbox.publishCredit(2, 7);
  inbox.publishCredit(1, 1ull << 40);
  CHECK(first.credit() == 1ull << 40);
  CHECK(second.credit() == 7);
  // The rings are untouched by it.
  CHECK_FALSE(inbox.hasData());
}

TEST_CASE("an idle receiver learns of data only through the doorbell, after the data is readable", "[shm]") {
  // Region-event rule 6: the receiver idles (no poller); the sender writes and rings at
  // once; when the ring call comes, the message must already be there to read.
  ShmInbox inbox(uniqueName("idle"), 2, 64 * 1024, kJob);
  inbox.leavePolling();
  ShmOutbox outbox(inbox.name(), 1);
  const char text[] = "wake up";
  const bool ring = outbox.send(headerFor(3, sizeof text), text, sizeof text);
  REQUIRE(ring);
  inbox.enterPolling();
  inbox.clearDoorbell();
  std::string got;
  inbox.drain(
      [&](int, WireMessage&& message) { got.assign(static_cast<const char*>(message.data()), message.size()); });
  CHECK(got == std::string(text, sizeof text));
}

TEST_CASE("a mailbox is private to its user and leaves nothing behind", "[shm]") {
  const std::string name = uniqueName("files");
  {
    ShmInbox inbox(name, 2, 4096, kJob);
    struct stat info {};
    REQUIRE(stat(("/dev/shm" + name).c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);
    ShmOutbox attached(name, 1);  // mapped before the name goes
    inbox.unlinkName();
    CHECK(stat(("/dev/shm" + name).c_str(), &info) != 0);
    CHECK_FALSE(attached.send(headerFor(1, 0), nullptr, 0));  // still works through the mapping
    CHECK_THROWS_AS(ShmOutbox(name, 1), TransportError);      // but nobody new can attach
  }
  {
    ShmInbox inbox(name, 2, 4096, kJob);                  // the name is free again
    CHECK_THROWS_AS(ShmOutbox(name, 5), TransportError);  // no ring for that sender
  }
  struct stat info {};
  CHECK(stat(("/dev/shm" + name).c_str(), &info) != 0);
}

TEST_CASE("the compact fast path writes a whole small message, and declines what it cannot write now", "[shm]") {
  // 3000 bytes asked for: the ring is 4 KiB (a power of two), so a fragment holds < 1 KiB.
  ShmInbox inbox(uniqueName("compact"), 2, 3000, kJob);
  ShmOutbox outbox(inbox.name(), 1);
  std::array<uint8_t, kCompactEnvelopeBytes> envelope{};
  for (size_t k = 0; k < envelope.size(); ++k) envelope[k] = static_cast<uint8_t>(k + 7);
  const std::string text = "eight by";
  bool ring = true;
  REQUIRE(outbox.trySendCompact(42, envelope.data(), text.data(), text.size(), ring));
  CHECK_FALSE(ring);  // the owner counts as polling until it first sleeps

  std::vector<WireMessage> delivered;
  auto keep = [&](int sender, WireMessage&& message) {
    CHECK(sender == 1);
    message.own();
    delivered.push_back(std::move(message));
  };
  REQUIRE(inbox.drain(keep) == 1);
  const WireMessage& got = delivered.at(0);
  CHECK(got.header.kind == 42);
  CHECK(got.header.jobHash == kJob);
  CHECK(got.header.payloadBytes == text.size());
  CHECK(std::memcmp(got.header.envelope.data(), envelope.data(), envelope.size()) == 0);
  for (size_t k = kCompactEnvelopeBytes; k < kEnvelopeBytes; ++k) CHECK(got.header.envelope[k] == 0);
  CHECK(std::string(static_cast<const char*>(got.data()), got.size()) == text);

  // Larger than a fragment: declined, nothing written.
  std::vector<uint8_t> big(2000, 1);
  CHECK_FALSE(outbox.trySendCompact(42, envelope.data(), big.data(), big.size(), ring));
  // Fill the ring until a compact message no longer fits: declined; the general send then
  // queues it, and while anything is queued the fast path declines too (order).
  int written = 0;
  while (outbox.trySendCompact(43, envelope.data(), text.data(), text.size(), ring)) ++written;
  CHECK(written == 4096 / 64);  // one line each, the ring drained before: exactly full
  CHECK_FALSE(outbox.send(headerFor(44, text.size()), text.data(), text.size()));
  CHECK(outbox.hasQueued());
  REQUIRE(inbox.drain(keep) == static_cast<std::size_t>(written));
  CHECK_FALSE(outbox.trySendCompact(45, envelope.data(), text.data(), text.size(), ring));
  outbox.flush();
  CHECK_FALSE(outbox.hasQueued());
  REQUIRE(outbox.trySendCompact(45, envelope.data(), text.data(), text.size(), ring));
  delivered.clear();
  REQUIRE(inbox.drain(keep) == 2);
  std::vector<uint16_t> kinds;
  for (const WireMessage& message : delivered) kinds.push_back(message.header.kind);
  CHECK(kinds == std::vector<uint16_t>{44, 45});  // the queued one first
}

TEST_CASE("a two-handler drain hands compact records over as they lie, the rest as WireMessages", "[shm]") {
  ShmInbox inbox(uniqueName("compact-sink"), 2, 4096, kJob);
  ShmOutbox outbox(inbox.name(), 1);
  std::array<uint8_t, kCompactEnvelopeBytes> envelope{};
  for (size_t k = 0; k < envelope.size(); ++k) envelope[k] = static_cast<uint8_t>(3 * k + 1);
  const std::string small = "compact!";
  bool ring = false;
  REQUIRE(outbox.trySendCompact(42, envelope.data(), small.data(), small.size(), ring));
  REQUIRE(outbox.trySendCompact(43, envelope.data(), nullptr, 0, ring));  // an empty payload
  WireHeader full = headerFor(44, small.size());
  full.envelope.back() = 1;  // a second half that is not zero: not compactable
  CHECK_FALSE(outbox.send(full, small.data(), small.size()));

  struct Seen {
    uint16_t kind;
    std::string envelope, payload;
  };
  std::vector<Seen> compact;
  std::vector<uint16_t> general;
  const std::size_t delivered = inbox.drain(
      [&](int sender, WireMessage&& message) {
        CHECK(sender == 1);
        general.push_back(message.header.kind);
      },
      [&](int sender, const CompactMessage& message) {
        CHECK(sender == 1);
        compact.push_back({message.kind,
                           std::string(reinterpret_cast<const char*>(message.envelope), kCompactEnvelopeBytes),
                           std::string(reinterpret_cast<const char*>(message.payload), message.bytes)});
      });
  CHECK(delivered == 3);
  const std::string sentEnvelope(reinterpret_cast<const char*>(envelope.data()), envelope.size());
  REQUIRE(compact.size() == 2);
  CHECK(compact[0].kind == 42);
  CHECK(compact[0].envelope == sentEnvelope);
  CHECK(compact[0].payload == small);
  CHECK(compact[1].kind == 43);
  CHECK(compact[1].envelope == sentEnvelope);
  CHECK(compact[1].payload.empty());
  CHECK(general == std::vector<uint16_t>{44});
}
