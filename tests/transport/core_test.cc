// The small pieces under everything: the one-per-process context, socket bookkeeping,
// the latch, the wire header, and zero-copy payloads released by zmq.
#include <catch2/catch.hpp>
#include <thread>

#include "test_util.h"
#include "transport/context.h"
#include "transport/errors.h"
#include "transport/inbox.h"
#include "transport/peer_sender.h"

namespace zmpi::transport::test {
namespace {

TEST_CASE("context: one owner per process, sockets need it", "[context]") {
  CHECK_FALSE(ContextOwner::isOpen());
  CHECK_THROWS_AS(Socket(zmq::socket_type::pull), TransportError);
  {
    ContextOwner context;
    CHECK(ContextOwner::isOpen());
    CHECK_THROWS_AS(ContextOwner(), TransportError);
    {
      Socket a(zmq::socket_type::pull);
      Socket b = std::move(a);  // a move does not count twice
      CHECK(openSocketCount() == 1);
    }
    CHECK(openSocketCount() == 0);
    context.close();
    CHECK_FALSE(ContextOwner::isOpen());
  }
  ContextOwner again;  // closed explicitly above, so a new one may open
  CHECK(ContextOwner::isOpen());
}

TEST_CASE("socket reads back the bound endpoint and names the peer in errors", "[socket]") {
  ContextOwner context;
  Socket socket(zmq::socket_type::pull, quickSocket());
  const std::string endpoint = socket.bind("tcp://127.0.0.1:*");
  CHECK_THAT(endpoint, Catch::StartsWith("tcp://127.0.0.1:"));
  CHECK(endpoint.find('*') == std::string::npos);
  Socket other(zmq::socket_type::pull, quickSocket());
  try {
    other.connect("nonsense://nowhere");
    FAIL("expected a TransportError");
  } catch (const TransportError& error) {
    CHECK_THAT(error.what(), Catch::Contains("connect to nonsense://nowhere"));
  }
}

TEST_CASE("ZMPI_LINGER_MS is a whole number of milliseconds or an error naming it", "[socket]") {
  CHECK(SocketOptions::parseLinger("0") == std::chrono::milliseconds(0));
  CHECK(SocketOptions::parseLinger("250") == std::chrono::milliseconds(250));
  CHECK(SocketOptions::parseLinger("2147483647") == std::chrono::milliseconds(2147483647));
  // What atoi read as 0, 10, 1 or -1 (linger for ever): each is refused, with the value.
  for (const char* bad : {"", "abc", "10ms", " 5", "1.5", "-1", "+5", "2147483648", "99999999999999999999"}) {
    INFO(bad);
    CHECK_THROWS_WITH(SocketOptions::parseLinger(bad), "ZMPI_LINGER_MS=" + std::string(bad) +
                                                           " is not a whole number of milliseconds (0 to 2147483647)");
  }
}

TEST_CASE("latch counts down across threads and times out", "[latch]") {
  Latch latch(2);
  CHECK_FALSE(latch.waitFor(std::chrono::milliseconds(1)));
  std::thread a([&] { latch.countDown(); });
  std::thread b([&] { latch.countDown(); });
  CHECK(latch.waitFor(10s));
  CHECK(latch.tryWait());
  a.join();
  b.join();
}

TEST_CASE("wire header layout and job hashes are stable", "[wire]") {
  WireHeader h;
  CHECK(h.magic == kWireMagic);
  CHECK(h.version == kWireVersion);
  CHECK(jobHashOf("a") == jobHashOf("a"));
  CHECK(jobHashOf("a") != jobHashOf("b"));
  CHECK(jobHashOf("") != 0);
}

TEST_CASE("zero-copy payload is released once zmq is done with it", "[wire][zerocopy]") {
  ContextOwner context;
  const uint64_t job = jobHashOf("zero-copy");
  Inbox inbox(job, quickSocket());
  const std::string endpoint = inbox.bind("tcp://127.0.0.1:*");
  std::vector<char> buffer(1 << 20, 'z');
  Latch released(1);
  {
    PeerSender sender(endpoint, quickSocket());
    WireHeader h = header(kEchoKind);
    h.jobHash = job;
    h.payloadBytes = buffer.size();
    sender.send(h, makeZeroCopyPayload(
                       buffer.data(), buffer.size(), [](void*, void* hint) { static_cast<Latch*>(hint)->countDown(); },
                       &released));
    auto message = inbox.receive(10s);
    REQUIRE(message);
    CHECK(message->payload.size() == buffer.size());
  }
  // The buffer must outlive zmq's use of it; the release callback says when that ended.
  REQUIRE(released.waitFor(10s));
}

}  // namespace
}  // namespace zmpi::transport::test
