// Every receiver rejects malformed frames (missing frame, truncated header, oversize
// length, wrong magic/version/job, extra frames) with a log line and a count, never a
// crash, and keeps working for the well-formed message that follows.
#include <catch2/catch.hpp>
#include <cstring>
#include <zmq_addon.hpp>

#include "test_util.h"
#include "transport/context.h"
#include "transport/errors.h"
#include "transport/frames.h"
#include "transport/inbox.h"
#include "transport/rendezvous.h"

namespace zmpi::transport::test {
namespace {

TEST_CASE("decodeFrames names what is wrong", "[wire][malformed]") {
  const uint64_t job = jobHashOf("decode");
  for (const BadMessage& bad : badMessages(job)) {
    INFO(bad.what);
    std::vector<zmq::message_t> frames;
    for (const auto& f : bad.frames) frames.emplace_back(f.data(), f.size());
    CHECK_THROWS_AS(decodeMessage(std::move(frames), job), MalformedMessage);
  }
  CHECK_THROWS_AS(decodeMessage({}, job), MalformedMessage);
  WireHeader good = header(kEchoKind);
  good.jobHash = job;
  good.payloadBytes = 3;
  std::vector<zmq::message_t> frames;
  frames.emplace_back(&good, sizeof good);
  frames.emplace_back("abc", 3);
  // Decoded outside CHECK, whose expansion names its argument twice (a use after move).
  const WireMessage decoded = decodeMessage(std::move(frames), job);
  CHECK(decoded.payload.to_string() == "abc");
}

TEST_CASE("inbox drops malformed messages and delivers the next good one", "[inbox][malformed]") {
  ContextOwner context;
  const uint64_t job = jobHashOf("inbox-malformed");
  Inbox inbox(job, quickSocket());
  const std::string endpoint = inbox.bind("tcp://127.0.0.1:*");
  Socket push(zmq::socket_type::push, quickSocket());
  push.connect(endpoint);
  const auto bad = badMessages(job);
  for (const BadMessage& message : bad) sendRaw(push.raw(), message.frames);
  WireHeader good = header(kEchoKind);
  good.jobHash = job;
  good.payloadBytes = 4;
  sendRaw(push.raw(), {rawHeader(good), "good"});

  // One pipe keeps order, so the good message comes after every bad one was seen.
  auto received = inbox.receive(10s);
  REQUIRE(received);
  CHECK(received->payload.to_string() == "good");
  CHECK(inbox.rejectedCount() == bad.size());
}

TEST_CASE("message server rejects malformed async messages", "[server][malformed]") {
  ContextOwner context;
  const uint64_t job = jobHashOf("server-async-malformed");
  EchoServer server(serverOptions(Kind::Tcp, job));
  server.start();
  Socket push(zmq::socket_type::push, quickSocket());
  push.connect(server.asyncEndpoint());
  const auto bad = badMessages(job);
  for (const BadMessage& message : bad) sendRaw(push.raw(), message.frames);
  WireHeader good = header(kEchoKind);
  good.jobHash = job;
  good.payloadBytes = 4;
  sendRaw(push.raw(), {rawHeader(good), "good"});

  REQUIRE(server.waitForAsync(1, 10s));
  CHECK(server.asyncPayloads() == std::vector<std::string>{"good"});
  CHECK(server.rejectedCount() == bad.size());
  server.stop();
}

TEST_CASE("message server answers malformed sync requests with an error reply", "[server][malformed]") {
  ContextOwner context;
  const uint64_t job = jobHashOf("server-sync-malformed");
  EchoServer server(serverOptions(Kind::Tcp, job));
  server.start();
  SocketOptions options = quickSocket();
  options.receiveTimeout = 10s;  // a missing reply fails the test instead of hanging it
  Socket req(zmq::socket_type::req, options);
  req.connect(server.syncEndpoint());
  const auto bad = badMessages(job);
  for (const BadMessage& message : bad) {
    INFO(message.what);
    sendRaw(req.raw(), message.frames);
    std::vector<zmq::message_t> frames;
    REQUIRE(zmqRecvMultipart(req.raw(), std::back_inserter(frames)));
    WireMessage reply = decodeMessage(std::move(frames), job);
    CHECK(reply.header.kind == kErrorReplyKind);
    CHECK_THAT(reply.payload.to_string(), Catch::Contains("malformed"));
  }
  CHECK(server.rejectedCount() == bad.size());
  CHECK(server.syncCount() == 0);

  // The same REQ socket, still in step, gets a real answer.
  MessageClient client(clientFor(server));
  CHECK(client.syncSend(header(kEchoKind), text("fine"), 5s).payload.to_string() == "fine");
  server.stop();
}

TEST_CASE("rendezvous server rejects malformed hellos and still completes", "[rendezvous][malformed]") {
  ContextOwner context;
  const uint64_t job = jobHashOf("rendezvous-malformed");
  RendezvousServer server("tcp://127.0.0.1:*", job, 2, 10s);
  Socket dealer(zmq::socket_type::dealer, quickSocket());
  dealer.connect(server.endpoint());

  auto bad = badMessages(job);
  // Well-formed frames that do not fit the job: index out of range, wrong size, kind.
  const auto hello = [job](int32_t participant, int32_t participants, uint16_t kind) {
    WireHeader h;
    h.kind = kind;
    h.jobHash = job;
    const int32_t envelope[4] = {participant, participants, 0, 0};
    std::memcpy(h.envelope.data(), envelope, sizeof envelope);
    return h;
  };
  bad.push_back({"participant out of range", {rawHeader(hello(5, 2, kRendezvousHello))}});
  bad.push_back({"negative participant", {rawHeader(hello(-1, 2, kRendezvousHello))}});
  bad.push_back({"wrong participant count", {rawHeader(hello(0, 3, kRendezvousHello))}});
  bad.push_back({"unknown kind", {rawHeader(hello(0, 2, 0x1ff))}});
  for (const BadMessage& message : bad) sendRaw(dealer.raw(), message.frames);

  // The raw socket then says a proper hello as participant 0, on the same ordered pipe,
  // and a real client joins as participant 1.
  WireHeader good = hello(0, 2, kRendezvousHello);
  good.payloadBytes = 4;
  sendRaw(dealer.raw(), {rawHeader(good), "zero"});
  RendezvousClient client(server.endpoint(), job, 1, 2);
  const auto table = client.exchange("one", 10s);
  CHECK(table == std::vector<std::string>{"zero", "one"});

  zmq::pollitem_t item{dealer.raw().handle(), 0, ZMQ_POLLIN, 0};
  REQUIRE(zmqPoll(&item, 1, 10s) == 1);
  std::vector<zmq::message_t> frames;
  REQUIRE(zmqRecvMultipart(dealer.raw(), std::back_inserter(frames)));
  const WireMessage reply = decodeMessage(std::move(frames), job);
  CHECK(reply.header.kind == kRendezvousTable);
  CHECK(server.rejectedCount() == bad.size());
  server.stop();
}

}  // namespace
}  // namespace zmpi::transport::test
