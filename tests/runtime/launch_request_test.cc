// What zmpid checks in a signed Launch before it starts anything, and how it builds each
// rank's environment (over its own, secret removed, its own lib dir first).
#include "runtime/zmpid/launch_request.h"

#include <catch2/catch.hpp>

using namespace zmpi::runtime;

namespace {

AgentContext context() {
  AgentContext context;
  context.environment = {{"PATH", "/usr/bin:/bin"}, {"HOME", "/root"}, {"LD_LIBRARY_PATH", "/opt/lib"}};
  context.libDir = "/opt/zmpi/lib";
  context.hostName = "testhost";
  return context;
}

proto::Launch validLaunch() {
  proto::Launch launch;
  launch.set_job_id("0123abcd");
  launch.set_host("h1");
  launch.set_bind_address("127.0.0.2");
  launch.set_heartbeat_interval_ms(1000);
  launch.set_heartbeat_timeout_ms(3000);
  launch.set_kill_grace_ms(500);
  for (int r : {2, 3}) {
    auto* rank = launch.add_ranks();
    rank->set_rank(r);
    rank->set_program("true");
    rank->add_argv("true");
    rank->add_environment("ZMPI_RANK=" + std::to_string(r));
    rank->add_environment("ZMPI_SECRET=must-not-pass");
    rank->set_working_directory("/tmp");
  }
  return launch;
}

std::string errorOf(const proto::Launch& launch, LaunchLimits limits = {}) {
  try {
    planLaunch(launch, context(), limits);
  } catch (const RequestError& error) {
    return error.what();
  }
  return "accepted";
}

bool hasEntry(const RankSpawn& spawn, const std::string& entry) {
  return std::find(spawn.environment.begin(), spawn.environment.end(), entry) != spawn.environment.end();
}

}  // namespace

TEST_CASE("launch request: a valid launch becomes one spawn per rank") {
  const auto plan = planLaunch(validLaunch(), context());
  REQUIRE(plan.size() == 2);
  CHECK(plan[0].rank == 2);
  CHECK(plan[0].executable == "/usr/bin/true");
  CHECK(plan[0].workingDirectory == "/tmp");
  CHECK(hasEntry(plan[0], "ZMPI_RANK=2"));
  CHECK(hasEntry(plan[1], "ZMPI_RANK=3"));
  CHECK(hasEntry(plan[0], "HOME=/root"));
  CHECK(hasEntry(plan[0], "LD_LIBRARY_PATH=/opt/zmpi/lib:/opt/lib"));
  for (const auto& entry : plan[0].environment) CHECK_FALSE(entry.starts_with("ZMPI_SECRET="));
}

TEST_CASE("launch request: a missing working directory falls back unless it was required") {
  auto launch = validLaunch();
  launch.mutable_ranks(0)->set_working_directory("/nonexistent/dir");
  CHECK(planLaunch(launch, context())[0].workingDirectory.empty());
  launch.mutable_ranks(0)->set_working_directory_required(true);
  CHECK_THAT(errorOf(launch), Catch::Contains("'/nonexistent/dir' does not exist on host testhost"));
}

TEST_CASE("launch request: every field is checked before anything runs") {
  auto launch = validLaunch();
  launch.set_bind_address("192.0.2.77");
  CHECK_THAT(errorOf(launch), Catch::Contains("192.0.2.77 is not an address of host testhost"));

  launch = validLaunch();
  launch.set_job_id("../../etc");
  CHECK_THAT(errorOf(launch), Catch::Contains("job id"));

  launch = validLaunch();
  launch.mutable_ranks(1)->set_rank(2);
  CHECK_THAT(errorOf(launch), Catch::Contains("given twice"));

  launch = validLaunch();
  launch.mutable_ranks(0)->set_rank(-1);
  CHECK_THAT(errorOf(launch), Catch::Contains("out of range"));

  launch = validLaunch();
  launch.mutable_ranks(0)->add_argv(std::string("a\0b", 3));
  CHECK_THAT(errorOf(launch), Catch::Contains("NUL"));

  launch = validLaunch();
  launch.mutable_ranks(0)->add_environment("1BAD=x");
  CHECK_THAT(errorOf(launch), Catch::Contains("is not NAME=value"));

  launch = validLaunch();
  launch.mutable_ranks(0)->add_environment("NOEQUALS");
  CHECK_THAT(errorOf(launch), Catch::Contains("is not NAME=value"));

  launch = validLaunch();
  launch.mutable_ranks(0)->clear_argv();
  CHECK_THAT(errorOf(launch), Catch::Contains("argv"));

  launch = validLaunch();
  launch.mutable_ranks(1)->set_program("no-such-program-zmpi");
  CHECK_THAT(errorOf(launch), Catch::Contains("cannot find executable 'no-such-program-zmpi' on host testhost"));

  launch = validLaunch();
  launch.clear_ranks();
  CHECK_THAT(errorOf(launch), Catch::Contains("1 to"));

  launch = validLaunch();
  launch.set_heartbeat_interval_ms(0);
  CHECK_THAT(errorOf(launch), Catch::Contains("heartbeat interval"));

  launch = validLaunch();
  launch.set_heartbeat_timeout_ms(1500);
  CHECK_THAT(errorOf(launch), Catch::Contains("twice the interval"));

  launch = validLaunch();
  launch.mutable_ranks(1)->set_receives_stdin(true);
  CHECK(errorOf(launch) == "accepted");  // one rank gets stdin
  launch.mutable_ranks(0)->set_receives_stdin(true);
  CHECK_THAT(errorOf(launch), Catch::Contains("more than one rank receives stdin"));
}

TEST_CASE("launch request: sizes are bounded") {
  LaunchLimits limits;
  limits.maxRanks = 1;
  CHECK_THAT(errorOf(validLaunch(), limits), Catch::Contains("1 to 1 ranks"));
  limits = {};
  limits.maxStringBytes = 8;
  auto launch = validLaunch();
  launch.mutable_ranks(0)->add_argv("a-long-argument");
  CHECK_THAT(errorOf(launch, limits), Catch::Contains("longer than 8 bytes"));
  limits = {};
  limits.maxEnvironment = 1;
  CHECK_THAT(errorOf(validLaunch(), limits), Catch::Contains("more than 1 environment"));
}
