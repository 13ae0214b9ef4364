// Hostfile and -H parsing: Open MPI's format, and errors that name the file and line.
#include "runtime/zmpirun/hostfile.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace zmpi::runtime;

namespace {
std::vector<HostEntry> parse(const std::string& text) {
  std::istringstream in(text);
  return parseHostfile(in, "hosts.txt");
}
std::string errorOf(const std::string& text) {
  try {
    parse(text);
  } catch (const HostfileError& error) {
    return error.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("hostfile: hosts, slots, comments and blank lines") {
  const auto hosts = parse(
      "# cluster\n"
      "\n"
      "node1 slots=4   # four cores\n"
      "node2\n"
      "  node3 slots = 2 max_slots=8\n"
      "node4 cpu=3\n");
  REQUIRE(hosts.size() == 4);
  CHECK(hosts[0].name == "node1");
  CHECK(hosts[0].slots == 4);
  CHECK_FALSE(hosts[1].slots.has_value());
  CHECK(hosts[2].slots == 2);
  CHECK(hosts[2].maxSlots == 8);
  CHECK(hosts[3].slots == 3);
  CHECK(hosts[2].origin == "hostfile 'hosts.txt', line 5");
}

TEST_CASE("hostfile: bad lines are errors naming the file and line") {
  CHECK(errorOf("node1 slots=4\nnode2 slots=x\n") ==
        "hostfile 'hosts.txt', line 2: slots must be a positive integer, found 'slots=x'");
  CHECK(errorOf("node1 slots=0\n").find("line 1: slots must be a positive integer") != std::string::npos);
  CHECK(errorOf("\n\nnode1 sockets=2\n").find("line 3: unknown key 'sockets'") != std::string::npos);
  CHECK(errorOf("node1 4\n").find("line 1: expected key=value") != std::string::npos);
  CHECK(errorOf("node1 slots=4 max_slots=2\n").find("max_slots=2 is less than slots=4") != std::string::npos);
  CHECK(errorOf("# nothing\n\n") == "hostfile 'hosts.txt' lists no hosts");
  CHECK(errorOf("no$host slots=1\n").find("line 1: 'no$host' is not a host name") != std::string::npos);
}

TEST_CASE("hostfile: what the Kubeflow MPI Operator writes, for Open MPI and for MPICH/Intel MPI") {
  const auto openMpi = parse(
      "mpijob-worker-0.mpijob.default.svc slots=2\n"
      "mpijob-worker-1.mpijob.default.svc slots=2\n");
  REQUIRE(openMpi.size() == 2);
  CHECK(openMpi[1].name == "mpijob-worker-1.mpijob.default.svc");
  CHECK(openMpi[1].slots == 2);
  const auto mpich = parse("mpijob-worker-0.mpijob.default.svc:4\nnode2:1 max_slots=3 # c\n");
  REQUIRE(mpich.size() == 2);
  CHECK(mpich[0].name == "mpijob-worker-0.mpijob.default.svc");
  CHECK(mpich[0].slots == 4);
  CHECK(mpich[1].name == "node2");
  CHECK(mpich[1].slots == 1);
  CHECK(mpich[1].maxSlots == 3);
  CHECK(errorOf("node1:0\n").find("line 1: slots in 'node1:0' must be a positive integer (host:N)") !=
        std::string::npos);
  CHECK(errorOf("node1:x\n").find("must be a positive integer (host:N)") != std::string::npos);
  CHECK(errorOf("node1:2 slots=3\n").find("slots given twice: 'node1:2' and 'slots=3'") != std::string::npos);
}

TEST_CASE("hostfile: an unreadable file is a clear error") {
  try {
    readHostfile("/nonexistent/zmpi-hosts");
    FAIL("no error");
  } catch (const HostfileError& error) {
    CHECK(std::string(error.what()) == "cannot open hostfile '/nonexistent/zmpi-hosts'");
  }
}

TEST_CASE("-H lists: host[:slots], one slot per plain mention") {
  const auto hosts = parseHostList("a:2,b,c:3");
  REQUIRE(hosts.size() == 3);
  CHECK(hosts[0].name == "a");
  CHECK(hosts[0].slots == 2);
  CHECK(hosts[1].slots == 1);
  CHECK(hosts[2].slots == 3);
  CHECK_THROWS_AS(parseHostList("a:0"), HostfileError);
  CHECK_THROWS_AS(parseHostList("a:x"), HostfileError);
  CHECK_THROWS_AS(parseHostList(""), HostfileError);
}
