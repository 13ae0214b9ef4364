// Where a multi-host job listens and what it tells each host: loopback "hosts" for tests
// on one machine, the refusal to mix loopback with real addresses, hostfile agent ports,
// and the environment a remote rank gets.
#include "runtime/zmpirun/job_network.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "runtime/zmpirun/hostfile.h"
#include "runtime/zmpirun/rank_environment.h"

using namespace zmpi::runtime;

namespace {
Host remote(const std::string& name, std::optional<int> port = std::nullopt) {
  return Host{name, 2, 0, false, "--host", port};
}
}  // namespace

TEST_CASE("job network: loopback hosts are reached on loopback, each at its agent's port") {
  const JobNetwork network = planJobNetwork({remote("127.0.0.2", 7200), remote("127.0.0.3")}, 7117, "");
  REQUIRE(network.agents.size() == 2);
  CHECK(network.agents.at("127.0.0.2").port == 7200);
  CHECK(network.agents.at("127.0.0.3").port == 7117);
  CHECK(network.agents.at("127.0.0.3").address == "127.0.0.3");
  CHECK(network.advertised.at("127.0.0.2") == "127.0.0.1");
  CHECK(network.rendezvousBind == "tcp://127.0.0.1:*");
  CHECK(network.agents.at("127.0.0.2").describe() == "host '127.0.0.2' (127.0.0.2:7200)");
}

TEST_CASE("job network: a single-host job keeps everything on loopback") {
  const JobNetwork network = planJobNetwork({Host{"me", 4, 0, true, "cores", std::nullopt}}, 7117, "");
  CHECK(network.agents.empty());
  CHECK(network.rendezvousBind == "tcp://127.0.0.1:*");
  CHECK(network.localRankAddress == "127.0.0.1");
}

TEST_CASE("job network: names that do not resolve, and a foreign launcher address, are errors") {
  CHECK_THROWS_WITH(planJobNetwork({remote("no-such-host.invalid")}, 7117, ""),
                    Catch::Contains("host 'no-such-host.invalid'") && Catch::Contains("does not resolve"));
  CHECK_THROWS_WITH(planJobNetwork({remote("127.0.0.2")}, 7117, "192.0.2.99"),
                    Catch::Contains("ZMPI_LAUNCHER_ADDRESS=192.0.2.99 is not an address of this machine"));
}

TEST_CASE("job network: the advertised rendezvous keeps the bound port") {
  CHECK(advertisedEndpoint("tcp://0.0.0.0:4321", "10.77.0.1") == "tcp://10.77.0.1:4321");
  CHECK(advertisedEndpoint("tcp://127.0.0.1:55", "127.0.0.1") == "tcp://127.0.0.1:55");
}

TEST_CASE("hostfile: agent_port per host") {
  std::istringstream in("node1 slots=2 agent_port=7200\nnode2\n");
  const auto entries = parseHostfile(in, "h");
  CHECK(entries[0].agentPort == 7200);
  CHECK_FALSE(entries[1].agentPort.has_value());
  std::istringstream bad("node1 agent_port=70000\n");
  CHECK_THROWS_WITH(parseHostfile(bad, "h"), Catch::Contains("agent_port must be a port number"));
}

TEST_CASE("remote rank environment: ZMPI_* settings and exports, never the secret or launcher-only settings") {
  const std::map<std::string, std::string> environment = {{"PATH", "/launcher/bin"},
                                                          {"ZMPI_LOG_LEVEL", "debug"},
                                                          {"ZMPI_SECRET", "s3cret-s3cret-s3cret"},
                                                          {"ZMPI_SECRET_FILE", "/home/me/secret"},
                                                          {"ZMPI_LIBDIR", "/launcher/lib"}};
  const JobEnvironment job{"job", "tcp://10.0.0.1:5000", 4, 4, "/launcher/lib", "the job secret"};
  const auto entries =
      remoteRankEnvironment(environment, {{"OMP_NUM_THREADS", "2"}}, job, RankEnvironment{3, "h2", "10.0.0.2", 1, 2});
  auto has = [&](const std::string& e) { return std::find(entries.begin(), entries.end(), e) != entries.end(); };
  CHECK(has("ZMPI_LOG_LEVEL=debug"));
  CHECK(has("OMP_NUM_THREADS=2"));
  CHECK(has("ZMPI_RANK=3"));
  CHECK(has("ZMPI_HOST=h2"));
  CHECK(has("ZMPI_BIND_ADDRESS=10.0.0.2"));
  CHECK(has("ZMPI_RENDEZVOUS=tcp://10.0.0.1:5000"));
  for (const auto& entry : entries) {
    CHECK_FALSE(entry.starts_with("PATH="));
    CHECK_FALSE(entry.starts_with("ZMPI_SECRET"));
    CHECK_FALSE(entry.starts_with("ZMPI_JOB_SECRET"));
    CHECK_FALSE(entry.starts_with("ZMPI_LIBDIR="));
    CHECK_FALSE(entry.starts_with("LD_LIBRARY_PATH="));
  }
}
