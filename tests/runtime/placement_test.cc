// Host resolution (local aliases, default slots) and rank placement (by slot,
// oversubscription, max_slots).
#include "runtime/zmpirun/placement.h"

#include <catch2/catch.hpp>

#include "runtime/zmpirun/hosts.h"

using namespace zmpi::runtime;

TEST_CASE("hosts: this machine's aliases merge into one host whose slots add up") {
  const auto hosts = resolveHosts(parseHostList("localhost:2,127.0.0.1:1," + localHostName() + ":1"));
  REQUIRE(hosts.size() == 1);
  CHECK(hosts[0].local);
  CHECK(hosts[0].name == localHostName());
  CHECK(hosts[0].slots == 4);
}

TEST_CASE("hosts: with no list the job gets this machine with one slot per core") {
  const auto hosts = resolveHosts({});
  REQUIRE(hosts.size() == 1);
  CHECK(hosts[0].local);
  CHECK(hosts[0].slots == localCoreCount());
  CHECK(localCoreCount() >= 1);
}

TEST_CASE("hosts: other loopback addresses are other hosts") {
  CHECK(isLocalHostName("localhost"));
  CHECK(isLocalHostName("127.0.0.1"));
  CHECK_FALSE(isLocalHostName("127.0.0.2"));
  CHECK_FALSE(isLocalHostName("node7"));
  const auto hosts = resolveHosts(parseHostList("127.0.0.2:2,127.0.0.3"));
  REQUIRE(hosts.size() == 2);
  CHECK_FALSE(hosts[0].local);
}

TEST_CASE("placement: ranks fill each host's slots in order") {
  std::vector<Host> hosts{{"a", 2, 0, false, ""}, {"b", 3, 0, false, ""}};
  const Placement placement = placeRanks(hosts, 4, false);
  REQUIRE(placement.ranks.size() == 4);
  CHECK(placement.ranks[0].hostIndex == 0);
  CHECK(placement.ranks[1].hostIndex == 0);
  CHECK(placement.ranks[1].localRank == 1);
  CHECK(placement.ranks[1].localSize == 2);
  CHECK(placement.ranks[2].hostIndex == 1);
  CHECK(placement.ranks[3].localRank == 1);
  CHECK(placement.ranks[3].localSize == 2);
  CHECK(placement.universeSize == 5);
  CHECK(placeRanks(hosts, 0, false).ranks.size() == 5);  // no -np: one per slot
}

TEST_CASE("placement: more ranks than slots needs --oversubscribe") {
  std::vector<Host> hosts{{"a", 2, 0, false, ""}};
  try {
    placeRanks(hosts, 3, false);
    FAIL("no error");
  } catch (const PlacementError& error) {
    CHECK(error.requested() == 3);
    CHECK(error.available() == 2);
  }
  const Placement placement = placeRanks(hosts, 8, true);
  CHECK(placement.ranks.size() == 8);
  CHECK(placement.ranks[7].localSize == 8);
  CHECK(placement.universeSize == 8);
}

TEST_CASE("placement: oversubscription stops at max_slots") {
  std::vector<Host> hosts{{"a", 1, 2, false, ""}, {"b", 1, 0, false, ""}};
  const Placement placement = placeRanks(hosts, 5, true);
  int onA = 0;
  for (const auto& rank : placement.ranks) onA += rank.hostIndex == 0;
  CHECK(onA == 2);
  std::vector<Host> capped{{"a", 1, 2, false, ""}};
  CHECK_THROWS_AS(placeRanks(capped, 3, true), PlacementError);
}

TEST_CASE("placement: --map-by node deals consecutive ranks to different hosts") {
  std::vector<Host> hosts{{"a", 2, 0, false, ""}, {"b", 2, 0, false, ""}, {"c", 2, 0, false, ""}};
  const Placement placement = placeRanks(hosts, 6, false, MapBy::Node);
  const int expectedHost[] = {0, 1, 2, 0, 1, 2};
  const int expectedLocal[] = {0, 0, 0, 1, 1, 1};
  for (int r = 0; r < 6; ++r) {
    CHECK(placement.ranks[r].rank == r);
    CHECK(placement.ranks[r].hostIndex == expectedHost[r]);
    CHECK(placement.ranks[r].localRank == expectedLocal[r]);
    CHECK(placement.ranks[r].localSize == 2);
  }
  // Fewer ranks than slots spread over the hosts instead of filling the first.
  const Placement few = placeRanks(hosts, 2, false, MapBy::Node);
  CHECK(few.ranks[0].hostIndex == 0);
  CHECK(few.ranks[1].hostIndex == 1);
  CHECK(few.ranks[1].localSize == 1);
  // Oversubscribed: a gets one extra (2), b keeps its 3; ranks go to each in turn.
  std::vector<Host> uneven{{"a", 1, 0, false, ""}, {"b", 3, 0, false, ""}};
  const Placement skewed = placeRanks(uneven, 5, true, MapBy::Node);
  const int skewedHost[] = {0, 1, 0, 1, 1};  // each host in turn while it has ranks to take
  for (int r = 0; r < 5; ++r) CHECK(skewed.ranks[r].hostIndex == skewedHost[r]);
}
