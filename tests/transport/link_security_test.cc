// Authenticated (PLAIN + token) and encrypted (CURVE) rank links (transport/link_security.h):
// in either mode only a holder of the job secret gets a message into an inbox or through
// the rendezvous; a stranger who knows the endpoint and the job id, with no credentials,
// another job's credentials, or this job's secret in the other mode, never delivers
// anything, and every refusal is counted (and logged). Several jobs' credentials live
// side by side in one process's ZAP handler.
#include "transport/link_security.h"

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

constexpr char kSecret[] = "a job secret for the link tests";
constexpr char kOtherSecret[] = "another job's secret, as long";

SocketOptions linkSocket(std::shared_ptr<const LinkKeys> keys, bool server) {
  SocketOptions options = quickSocket();
  options.linkKeys = std::move(keys);
  options.linkServer = server;
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

const char* modeName(bool encrypt) { return encrypt ? "encrypted (CURVE)" : "authenticated (PLAIN)"; }

TEST_CASE("link credentials are derived from the secret and the mode alone", "[link]") {
  REQUIRE(curveAvailable());
  auto plain = deriveLinkKeys(kSecret, false);
  auto plainAgain = deriveLinkKeys(kSecret, false);
  auto curve = deriveLinkKeys(kSecret, true);
  auto curveAgain = deriveLinkKeys(kSecret, true);
  auto otherPlain = deriveLinkKeys(kOtherSecret, false);
  auto otherCurve = deriveLinkKeys(kOtherSecret, true);
  CHECK(plain->token == plainAgain->token);
  CHECK(plain->zapDomain == plainAgain->zapDomain);
  CHECK(plain->token != otherPlain->token);
  CHECK(plain->token != std::array<uint8_t, 32>{});
  CHECK(curve->serverPublic == curveAgain->serverPublic);
  CHECK(curve->clientSecret == curveAgain->clientSecret);
  CHECK(curve->serverPublic != curve->clientPublic);
  CHECK(curve->serverPublic != otherCurve->serverPublic);
  CHECK(curve->clientPublic != otherCurve->clientPublic);
  // Each mode carries only what it uses; the token is none of the CURVE keys.
  CHECK(plain->serverSecret == std::array<uint8_t, 32>{});
  CHECK(curve->token == std::array<uint8_t, 32>{});
  CHECK(plain->token != curve->clientSecret);
  CHECK(plain->token != curve->serverSecret);
  // One domain per (secret, mode).
  CHECK(plain->zapDomain != curve->zapDomain);
  CHECK(plain->zapDomain != otherPlain->zapDomain);
  CHECK(curve->zapDomain != otherCurve->zapDomain);
  CHECK_THROWS_AS(deriveLinkKeys("short", false), TransportError);
  CHECK_THROWS_AS(deriveLinkKeys("short", true), TransportError);
}

TEST_CASE("ZMPI_ENCRYPT is read strictly", "[link]") {
  CHECK_FALSE(encryptionRequested(nullptr));
  for (const char* off : {"", "0", "no", "off", "false"}) CHECK_FALSE(encryptionRequested(off));
  for (const char* on : {"1", "yes", "on", "true"}) CHECK(encryptionRequested(on));
  CHECK_THROWS_AS(encryptionRequested("2"), TransportError);
  CHECK_THROWS_AS(encryptionRequested("ture"), TransportError);
}

TEST_CASE("an authenticated inbox delivers only what the job's credentials sent", "[link]") {
  const bool encrypt = GENERATE(false, true);
  const Kind kind = GENERATE(Kind::Tcp, Kind::Ipc);
  INFO(modeName(encrypt) << " over " << kindName(kind));
  ContextOwner context;
  const auto keys = deriveLinkKeys(kSecret, encrypt);
  ZapAuthenticator zap(keys);
  const uint64_t job = jobHashOf("link-inbox");
  Inbox inbox(job, linkSocket(keys, true));
  const std::string bound = inbox.bind(endpointPattern(kind));

  // A stranger who knows the endpoint and the job: a plain (NULL) PUSH, a well-formed message.
  Socket plain(zmq::socket_type::push, quickSocket());
  plain.connect(bound);
  sendRaw(plain.raw(), {rawHeader(message(job, 6)), "forged"});
  // Another job's process, with its own secret in the same mode. For CURVE it even knows
  // this job's server key (which is public), so it gets as far as ZAP.
  auto ownKeys = std::make_shared<LinkKeys>(*deriveLinkKeys(kOtherSecret, encrypt));
  if (encrypt) ownKeys->serverPublic = keys->serverPublic;
  Socket wrongSecret(zmq::socket_type::push, linkSocket(ownKeys, false));
  wrongSecret.connect(bound);
  sendRaw(wrongSecret.raw(), {rawHeader(message(job, 6)), "forged"});
  // This job's secret, but the other mode: the mechanisms do not match.
  Socket otherMode(zmq::socket_type::push, linkSocket(deriveLinkKeys(kSecret, !encrypt), false));
  otherMode.connect(bound);
  sendRaw(otherMode.raw(), {rawHeader(message(job, 6)), "forged"});

  PeerSender member(bound, linkSocket(keys, false));
  member.send(message(job, 4), zmq::message_t("good", 4));
  auto received = inbox.receive(10s);
  REQUIRE(received);
  CHECK(received->payload.to_string() == "good");
  CHECK(eventually([&] { return zap.refusedCount(); }, 10s));  // the wrong secret, refused by ZAP
  // The mechanism mismatches never reach ZAP; the inbox's monitor, drained while the
  // inbox waits, sees them refused. No stranger's message ever arrives meanwhile.
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (inbox.refusedConnections() < 2 && std::chrono::steady_clock::now() < deadline) {
    REQUIRE_FALSE(inbox.receive(50ms));
  }
  CHECK(inbox.refusedConnections() >= 2);
  // Nor is anything malformed seen: the bytes never got past zmq's handshake.
  CHECK_FALSE(inbox.receive(300ms));
  CHECK(inbox.rejectedCount() == 0);
  CHECK(zap.acceptedCount() >= 1);
  member.close();
  plain.close();
  wrongSecret.close();
  otherMode.close();
}

TEST_CASE("an authenticated rendezvous answers only the job's participants and logs the rest", "[link][rendezvous]") {
  const bool encrypt = GENERATE(false, true);
  INFO(modeName(encrypt));
  ContextOwner context;
  const auto keys = deriveLinkKeys(kSecret, encrypt);
  ZapAuthenticator zap(keys);
  const uint64_t job = jobHashOf("link-rendezvous");
  RendezvousServer server("tcp://127.0.0.1:*", job, 1, 10s, {}, {}, keys);
  {
    RendezvousClient stranger(server.endpoint(), job, 0, 1);
    CHECK_THROWS_AS(stranger.exchange("forged", 500ms), TimeoutError);
  }
  {
    // Another job's credentials (for CURVE with this job's public server key, to get as
    // far as ZAP).
    auto ownKeys = std::make_shared<LinkKeys>(*deriveLinkKeys(kOtherSecret, encrypt));
    ownKeys->serverPublic = keys->serverPublic;
    RendezvousClient otherJob(server.endpoint(), job, 0, 1, ownKeys);
    CHECK_THROWS_AS(otherJob.exchange("forged", 500ms), TimeoutError);
  }
  RendezvousClient member(server.endpoint(), job, 0, 1, keys);
  CHECK(member.exchange("me", 10s) == std::vector<std::string>{"me"});
  CHECK(server.rejectedCount() == 0);
  // Both strangers' connections were refused in the handshake, and the server saw it.
  CHECK(eventually([&] { return server.refusedConnections() >= 2 ? uint64_t{1} : uint64_t{0}; }, 10s));
  CHECK(zap.refusedCount() >= 1);
  server.stop();
}

TEST_CASE("several jobs' credentials share the process's one ZAP handler", "[link]") {
  // Three jobs in one process (as worlds of several jobs, or a launcher and its ranks, in
  // one test): two authenticated, one encrypted. Each inbox takes its own job's senders
  // and refuses the others'; a job leaving does not disturb the rest.
  ContextOwner context;
  const auto keysA = deriveLinkKeys(kSecret, false);
  const auto keysB = deriveLinkKeys(kOtherSecret, false);
  const auto keysC = deriveLinkKeys("a third job's secret, encrypted", true);
  auto zapA = std::make_unique<ZapAuthenticator>(keysA);
  ZapAuthenticator zapB(keysB);
  ZapAuthenticator zapC(keysC);
  ZapAuthenticator zapA2(keysA);  // a second world of job A: the same domain, enrolled twice
  const uint64_t job = jobHashOf("link-many");
  Inbox inboxA(job, linkSocket(keysA, true));
  Inbox inboxB(job, linkSocket(keysB, true));
  Inbox inboxC(job, linkSocket(keysC, true));
  const std::string a = inboxA.bind(endpointPattern(Kind::Tcp));
  const std::string b = inboxB.bind(endpointPattern(Kind::Tcp));
  const std::string c = inboxC.bind(endpointPattern(Kind::Tcp));

  PeerSender bIntoA(a, linkSocket(keysB, false));
  bIntoA.send(message(job, 6), zmq::message_t("from B", 6));
  PeerSender toA(a, linkSocket(keysA, false));
  toA.send(message(job, 1), zmq::message_t("A", 1));
  PeerSender toB(b, linkSocket(keysB, false));
  toB.send(message(job, 1), zmq::message_t("B", 1));
  PeerSender toC(c, linkSocket(keysC, false));
  toC.send(message(job, 1), zmq::message_t("C", 1));
  for (auto [inbox, expected] : {std::pair{&inboxA, "A"}, std::pair{&inboxB, "B"}, std::pair{&inboxC, "C"}}) {
    auto received = inbox->receive(10s);
    REQUIRE(received);
    CHECK(received->payload.to_string() == expected);
  }
  CHECK(eventually([&] { return zapA->refusedCount(); }, 10s));  // B's token at A's door
  CHECK(zapA2.refusedCount() == zapA->refusedCount());           // one domain, one set of counters
  CHECK(zapB.refusedCount() == 0);
  CHECK(zapB.acceptedCount() >= 1);
  CHECK(zapC.acceptedCount() >= 1);

  // One of job A's two enrolments leaves: A still accepts new connections.
  zapA.reset();
  PeerSender toAAgain(a, linkSocket(keysA, false));
  toAAgain.send(message(job, 1), zmq::message_t("a", 1));
  auto again = inboxA.receive(10s);
  REQUIRE(again);
  CHECK(again->payload.to_string() == "a");
  CHECK_FALSE(inboxA.receive(200ms));  // B's message never came
  for (PeerSender* sender : {&bIntoA, &toA, &toB, &toC, &toAAgain}) sender->close();
}

}  // namespace
}  // namespace zmpi::transport::test
