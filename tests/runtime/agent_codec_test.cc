// The agent protocol's signatures: what a receiver accepts, and everything it must not
// (another secret, altered bytes, unsigned commands, garbage), plus the replay guard.
#include "runtime/common/agent_codec.h"

#include <catch2/catch.hpp>

#include "runtime/zmpid/replay_guard.h"

using namespace zmpi::runtime;

namespace {

proto::AgentMessage launchMessage() {
  proto::AgentMessage message;
  message.set_session(std::string(kSessionIdBytes, 'a'));
  message.set_sequence(1);
  message.set_timestamp_ms(wallClockMs());
  message.mutable_launch()->set_job_id("job1");
  auto* rank = message.mutable_launch()->add_ranks();
  rank->set_program("/bin/true");
  rank->add_argv("true");
  return message;
}

std::string errorOf(const AgentCodec& codec, const zmpi::transport::WireMessage& wire) {
  try {
    codec.open(wire);
  } catch (const AgentProtocolError& error) {
    return error.what();
  }
  return "accepted";
}

zmpi::transport::WireMessage copyOf(const zmpi::transport::WireMessage& wire) {
  zmpi::transport::WireMessage copy;
  copy.header = wire.header;
  copy.payload = zmpi::transport::makePayload(wire.payload.data(), wire.payload.size());
  return copy;
}

}  // namespace

TEST_CASE("agent codec: a signed message opens with the same secret") {
  Secret secret("correct horse battery staple");
  AgentCodec codec(&secret);
  const auto wire = codec.seal(launchMessage());
  const OpenedMessage opened = codec.open(wire);
  CHECK(opened.authenticated);
  CHECK(opened.message.launch().job_id() == "job1");
  CHECK(opened.message.launch().ranks(0).program() == "/bin/true");
}

TEST_CASE("agent codec: another secret, altered bytes or an altered kind are rejected") {
  Secret secret("correct horse battery staple");
  Secret other("correct horse battery stapler");
  AgentCodec codec(&secret);
  const auto wire = codec.seal(launchMessage());
  CHECK_THAT(errorOf(AgentCodec(&other), wire), Catch::Contains("secret differs"));

  auto altered = copyOf(wire);
  static_cast<char*>(altered.payload.data())[altered.payload.size() - 1] ^= 1;
  CHECK_THAT(errorOf(codec, altered), Catch::Contains("does not verify"));

  auto unsigned_ = copyOf(wire);
  unsigned_.header.kind = kAgentUnsignedKind;  // a launch passed off as an unsigned refusal
  CHECK_THAT(errorOf(codec, unsigned_), Catch::Contains("unsigned message that is not a refusal"));

  auto foreign = copyOf(wire);
  foreign.header.kind = 7;
  CHECK_THAT(errorOf(codec, foreign), Catch::Contains("not a zmpi agent message"));
}

TEST_CASE("agent codec: garbage that happens to carry a valid signature is still rejected") {
  Secret secret("correct horse battery staple");
  AgentCodec codec(&secret);
  proto::AgentMessage empty;
  auto wire = codec.seal(empty);
  // Replace the payload with bytes that are no protobuf, re-signed by a codec that knows
  // the secret: only the parser stands between them and the agent.
  const std::string junk = "\xff\xff\xff\xff\xff\xff\xff\xff\x0f";
  zmpi::transport::WireMessage forged;
  forged.header = wire.header;
  forged.payload = zmpi::transport::makePayload(junk.data(), junk.size());
  CHECK(errorOf(codec, forged) != "accepted");
}

TEST_CASE("agent codec: an unsigned refusal opens, unauthenticated, even without a secret") {
  AgentCodec noSecret(nullptr);
  const auto wire = noSecret.refusal(std::string(kSessionIdBytes, 'b'), "no secret here");
  Secret secret("correct horse battery staple");
  const OpenedMessage opened = AgentCodec(&secret).open(wire);
  CHECK_FALSE(opened.authenticated);
  CHECK(opened.message.refused().reason() == "no secret here");
  // A codec without a secret cannot verify, so it accepts no signed message at all.
  CHECK_THAT(errorOf(noSecret, AgentCodec(&secret).seal(launchMessage())), Catch::Contains("no secret"));
  CHECK_THROWS_AS(noSecret.seal(launchMessage()), AgentProtocolError);
}

TEST_CASE("agent codec: text from the other side is made printable and bounded") {
  CHECK(printable("ok\x1b[31m") == "ok?[31m");
  CHECK(printable(std::string(600, 'x'), 10) == "xxxxxxxxxx...");
}

TEST_CASE("replay guard: fresh launches pass once; replays, stale and future timestamps do not") {
  ReplayGuard guard(std::chrono::seconds(30), 3);
  const int64_t now = 1'700'000'000'000;
  CHECK(guard.admit("s1", now, now).empty());
  CHECK_THAT(guard.admit("s1", now, now + 1000), Catch::Contains("replayed"));
  CHECK_THAT(guard.admit("s2", now - 31'000, now), Catch::Contains("clock"));
  CHECK_THAT(guard.admit("s3", now + 31'000, now), Catch::Contains("clock"));
  CHECK(guard.admit("s4", now + 29'000, now).empty());
  // Ids are forgotten once their timestamps are too old to pass anyway.
  CHECK(guard.remembered() == 2);
  CHECK_THAT(guard.admit("s1", now, now + 31'000), Catch::Contains("clock"));
  CHECK(guard.remembered() == 1);
  // Memory is bounded: past the capacity, launches wait for old ids to expire.
  CHECK(guard.admit("s5", now + 31'000, now + 31'000).empty());
  CHECK(guard.admit("s6", now + 31'000, now + 31'000).empty());
  CHECK_THAT(guard.admit("s7", now + 31'000, now + 31'000), Catch::Contains("too many"));
}

TEST_CASE("agent protocol: zmpirun and zmpid of another protocol version refuse each other, naming both") {
  CHECK(agentProtocolMismatch("0.2.0", kAgentProtocolVersion, "0.1.0", kAgentProtocolVersion, "node1").empty());
  // A new zmpirun and a zmpid from before the check (its Accepted has no protocol version).
  const std::string oldAgent = agentProtocolMismatch("0.2.0", 2, "0.1.0", 0, "node1");
  CHECK_THAT(oldAgent, Catch::Contains("zmpirun 0.2.0 (agent protocol 2)"));
  CHECK_THAT(oldAgent, Catch::Contains("zmpid 0.1.0 (older than agent protocol versions)"));
  CHECK_THAT(oldAgent, Catch::Contains("on host 'node1'"));
  CHECK_THAT(oldAgent, Catch::Contains("from the same zmpi build"));
  // An old zmpirun (no version at all in its Launch) and a new zmpid.
  const std::string oldLauncher = agentProtocolMismatch("", 0, "0.2.0", 2, "node2");
  CHECK_THAT(oldLauncher, Catch::Contains("zmpirun (version unknown) (older than agent protocol versions)"));
  CHECK_THAT(oldLauncher, Catch::Contains("zmpid 0.2.0 (agent protocol 2)"));
  // Two versioned builds that differ (the output credit accounting of 78b2efd, say).
  const std::string skew = agentProtocolMismatch("0.1.0", 1, "0.1.1", 2, "node3");
  CHECK_THAT(skew, Catch::Contains("zmpirun 0.1.0 (agent protocol 1) and zmpid 0.1.1 (agent protocol 2)"));
  // What the other side claims is printed safely.
  CHECK(agentProtocolMismatch(std::string("9\n\x1b[2J", 6), 3, "0.1.0", 2, "n").find('\x1b') == std::string::npos);
}
