// MessageServer + MessageClient: round trips over every transport, handler failures,
// many concurrent clients on one server.
#include <catch2/catch.hpp>
#include <thread>
#include <zmq_addon.hpp>

#include "test_util.h"
#include "transport/context.h"
#include "transport/errors.h"

namespace zmpi::transport::test {
namespace {

TEST_CASE("server async and sync round trip over tcp ipc and inproc", "[server]") {
  const Kind kind = GENERATE(Kind::Tcp, Kind::Ipc, Kind::Inproc);
  INFO("transport " << kindName(kind));
  ContextOwner context;
  const uint64_t job = jobHashOf("round-trip");
  EchoServer server(serverOptions(kind, job));
  server.start();
  CHECK(server.asyncEndpoint().find('*') == std::string::npos);  // read back, not the pattern
  MessageClient client(clientFor(server));

  client.asyncSend(header(kEchoKind), text("hello async"));
  WireMessage reply = client.syncSend(header(kEchoKind), text("hello sync"), 5s);
  CHECK(reply.header.kind == kEchoKind);
  CHECK(reply.header.jobHash == job);
  CHECK(reply.payload.to_string() == "hello sync");

  // A header-only call and a large payload (above any small-message optimisation).
  CHECK(client.syncSend(header(kEchoKind), 5s).payload.size() == 0);
  const std::string big(1 << 20, 'x');
  CHECK(client.syncSend(header(kEchoKind), text(big), 5s).payload.to_string() == big);

  REQUIRE(server.waitForAsync(1, 5s));
  CHECK(server.asyncPayloads() == std::vector<std::string>{"hello async"});
  CHECK(server.rejectedCount() == 0);
  server.stop();
}

TEST_CASE("server turns a throwing sync handler into an error reply", "[server]") {
  ContextOwner context;
  EchoServer server(serverOptions(Kind::Tcp, jobHashOf("handler-failure")));
  server.start();
  MessageClient client(clientFor(server));
  try {
    client.syncSend(header(kFailKind), 5s);
    FAIL("expected a RemoteError");
  } catch (const RemoteError& error) {
    CHECK_THAT(error.what(), Catch::Contains("asked to fail"));
    CHECK_THAT(error.what(), Catch::Contains(server.syncEndpoint()));
  }
  // The REP/REQ pair is still in step: the next call works.
  CHECK(client.syncSend(header(kEchoKind), text("after"), 5s).payload.to_string() == "after");
  CHECK(server.handlerFailureCount() == 1);
  server.stop();
}

TEST_CASE("server without handlers rejects through error replies", "[server]") {
  ContextOwner context;
  struct Bare : MessageServer {
    using MessageServer::MessageServer;
    ~Bare() override { stop(); }
  } server(serverOptions(Kind::Inproc, 0, "bare"));
  server.start();
  MessageClient client(clientFor(server));
  CHECK_THROWS_AS(client.syncSend(header(1), 5s), RemoteError);
  server.stop();
}

TEST_CASE("server serves 16 concurrent clients in per-client order", "[server][concurrency]") {
  const Kind kind = GENERATE(Kind::Tcp, Kind::Ipc);
  INFO("transport " << kindName(kind));
  ContextOwner context;
  EchoServer server(serverOptions(kind, jobHashOf("sixteen")));
  server.start();
  constexpr int kClients = 16;
  constexpr int kMessages = 50;
  Latch ready(kClients);
  std::atomic<int> echoed{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c) {
    threads.emplace_back([&, c] {
      try {
        MessageClient client(clientFor(server));
        ready.arriveAndWait();  // all clients connected before anyone sends: real overlap
        for (int i = 0; i < kMessages; ++i) {
          const std::string body = std::to_string(c) + ":" + std::to_string(i);
          client.asyncSend(header(kEchoKind), text(body));
          if (client.syncSend(header(kEchoKind), text(body), 10s).payload.to_string() == body) echoed.fetch_add(1);
        }
      } catch (const std::exception& error) {
        UNSCOPED_INFO("client " << c << ": " << error.what());
        failures.fetch_add(1);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  REQUIRE(failures == 0);
  CHECK(echoed == kClients * kMessages);
  REQUIRE(server.waitForAsync(kClients * kMessages, 10s));
  // Messages from one client arrive in the order it sent them (non-overtaking).
  std::vector<int> next(kClients, 0);
  for (const std::string& body : server.asyncPayloads()) {
    const int c = std::stoi(body.substr(0, body.find(':')));
    const int i = std::stoi(body.substr(body.find(':') + 1));
    CHECK(i == next[c]);
    next[c] = i + 1;
  }
  server.stop();
}

TEST_CASE("client rejects a malformed reply and stays usable", "[client][malformed]") {
  ContextOwner context;
  const uint64_t job = jobHashOf("bad-reply");
  SocketOptions options = quickSocket();
  options.receiveTimeout = 10s;  // the fake server gives up if the client never calls
  Socket rep(zmq::socket_type::rep, options);
  const std::string endpoint = rep.bind("tcp://127.0.0.1:*");
  MessageClient client({"", endpoint, job, quickSocket()});
  std::thread fake([&] {
    // Answers the first request with a truncated header, the second properly.
    zmq::message_t request;
    (void)zmqRecv(rep.raw(), request, zmq::recv_flags::none);
    zmqSend(rep.raw(), zmq::str_buffer("short"), zmq::send_flags::none);
    std::vector<zmq::message_t> frames;
    (void)zmqRecvMultipart(rep.raw(), std::back_inserter(frames));
    WireHeader ok = header(kEchoKind);
    ok.jobHash = job;
    zmqSend(rep.raw(), zmq::buffer(rawHeader(ok)), zmq::send_flags::none);
  });
  ScopeExit join{[&] { fake.join(); }};
  CHECK_THROWS_AS(client.syncSend(header(kEchoKind), 5s), MalformedMessage);
  CHECK(client.syncSend(header(kEchoKind), 5s).header.kind == kEchoKind);
}

TEST_CASE("client without an endpoint refuses that kind of send", "[client]") {
  ContextOwner context;
  MessageClient client({"", "", 0, quickSocket()});
  CHECK_THROWS_AS(client.asyncSend(header(1)), TransportError);
  CHECK_THROWS_AS(client.syncSend(header(1), 1s), TransportError);
}

}  // namespace
}  // namespace zmpi::transport::test
