// CURVE on rank links (transport/curve.h): only a holder of the job secret gets a message
// into an inbox or through the rendezvous; a stranger who knows the endpoint and the job
// id, even one speaking CURVE with keys of its own, never delivers anything.
#include "transport/curve.h"

#include <catch2/catch.hpp>
#include <thread>

#include "test_util.h"
#include "transport/context.h"
#include "transport/errors.h"
#include "transport/inbox.h"
#include "transport/peer_sender.h"
#include "transport/rendezvous.h"

namespace zmpi::transport::test {
namespace {

constexpr char kSecret[] = "a job secret for the curve tests";

SocketOptions curveSocket(std::shared_ptr<const CurveKeys> keys, bool server) {
  SocketOptions options = quickSocket();
  options.curve = std::move(keys);
  options.curveServer = server;
  return options;
}

WireHeader message(uint64_t job, size_t payloadBytes) {
  WireHeader h = header(kEchoKind);
  h.jobHash = job;
  h.payloadBytes = payloadBytes;
  return h;
}

// Bounded wait for a counter another thread advances (zmq's handshake runs on its own).
template <typename Count>
bool eventually(Count count, std::chrono::milliseconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (count() == 0) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

TEST_CASE("job keys are derived from the secret alone", "[curve]") {
  REQUIRE(curveAvailable());
  auto a = deriveCurveKeys(kSecret);
  auto b = deriveCurveKeys(kSecret);
  auto other = deriveCurveKeys("another job's secret, as long");
  CHECK(a->serverPublic == b->serverPublic);
  CHECK(a->clientSecret == b->clientSecret);
  CHECK(a->serverPublic != a->clientPublic);
  CHECK(a->serverPublic != other->serverPublic);
  CHECK(a->clientPublic != other->clientPublic);
  CHECK_THROWS_AS(deriveCurveKeys("short"), TransportError);
}

TEST_CASE("a CURVE inbox delivers only what the job's keys sent", "[curve]") {
  ContextOwner context;
  const auto keys = deriveCurveKeys(kSecret);
  ZapAuthenticator zap(keys);
  const uint64_t job = jobHashOf("curve-inbox");
  Inbox inbox(job, curveSocket(keys, true));
  const Kind kind = GENERATE(Kind::Tcp, Kind::Ipc);
  INFO(kindName(kind));
  const std::string endpoint = endpointPattern(kind);
  const std::string bound = inbox.bind(endpoint);

  // A stranger who knows the endpoint and the job: a plain PUSH with a well-formed message.
  Socket plain(zmq::socket_type::push, quickSocket());
  plain.connect(bound);
  sendRaw(plain.raw(), {rawHeader(message(job, 6)), "forged"});
  // Another stranger speaks CURVE with the right server key but keys of its own.
  auto stranger = std::make_shared<CurveKeys>(*deriveCurveKeys("a stranger's secret of its own"));
  stranger->serverPublic = keys->serverPublic;
  Socket wrongKey(zmq::socket_type::push, curveSocket(stranger, false));
  wrongKey.connect(bound);
  sendRaw(wrongKey.raw(), {rawHeader(message(job, 6)), "forged"});

  PeerSender member(bound, curveSocket(keys, false));
  member.send(message(job, 4), zmq::message_t("good", 4));
  auto received = inbox.receive(10s);
  REQUIRE(received);
  CHECK(received->payload.to_string() == "good");
  CHECK(eventually([&] { return zap.refusedCount(); }, 10s));  // the wrong key, refused by ZAP
  // Neither stranger's message ever arrives, nor is anything malformed seen: the bytes
  // never got past zmq's handshake.
  CHECK_FALSE(inbox.receive(300ms));
  CHECK(inbox.rejectedCount() == 0);
  CHECK(zap.acceptedCount() >= 1);
  member.close();
  plain.close();
  wrongKey.close();
}

TEST_CASE("a CURVE rendezvous answers only the job's participants", "[curve][rendezvous]") {
  ContextOwner context;
  const auto keys = deriveCurveKeys(kSecret);
  ZapAuthenticator zap(keys);
  const uint64_t job = jobHashOf("curve-rendezvous");
  RendezvousServer server("tcp://127.0.0.1:*", job, 1, 10s, {}, {}, keys);
  {
    RendezvousClient stranger(server.endpoint(), job, 0, 1);
    CHECK_THROWS_AS(stranger.exchange("forged", 500ms), TimeoutError);
  }
  RendezvousClient member(server.endpoint(), job, 0, 1, keys);
  CHECK(member.exchange("me", 10s) == std::vector<std::string>{"me"});
  CHECK(server.rejectedCount() == 0);
  server.stop();
}

}  // namespace
}  // namespace zmpi::transport::test
