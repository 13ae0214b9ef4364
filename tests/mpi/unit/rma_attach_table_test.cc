// The attach tables of dynamic windows (attach_table.h): what an origin learns from a
// target's table, and that a read never mixes two versions of it.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "mpi/rma/attach_table.h"

using zmpi::mpi::rma::AttachTableLine;
using zmpi::mpi::rma::AttachTables;
using zmpi::mpi::rma::kListedRegions;
using Regions = std::vector<std::pair<uintptr_t, std::size_t>>;

TEST_CASE("an attach table answers inside, outside, or unknown past what it lists", "[rma][attach]") {
  std::vector<AttachTableLine> lines(2);  // zero-filled: empty tables
  AttachTables tables(lines.data());
  CHECK(tables.find(1, 100, 104) == AttachTables::Lookup::Outside);
  const Regions two{{1000, 100}, {4000, 8}};
  tables.publish(1, two);
  CHECK(tables.find(1, 1000, 1100) == AttachTables::Lookup::Inside);
  CHECK(tables.find(1, 1050, 1060) == AttachTables::Lookup::Inside);
  CHECK(tables.find(1, 4000, 4008) == AttachTables::Lookup::Inside);
  CHECK(tables.find(1, 1090, 1101) == AttachTables::Lookup::Outside);  // runs off the end
  CHECK(tables.find(1, 999, 1001) == AttachTables::Lookup::Outside);
  CHECK(tables.find(1, 1099, 4001) == AttachTables::Lookup::Outside);  // spans two regions
  CHECK(tables.find(0, 1000, 1100) == AttachTables::Lookup::Outside);  // another rank's table

  Regions many;
  for (std::size_t i = 0; i <= kListedRegions; ++i) many.emplace_back(10000 + 100 * i, 10);
  tables.publish(1, many);
  CHECK(tables.find(1, 10000, 10010) == AttachTables::Lookup::Unknown);
  CHECK(tables.find(1, 1, 2) == AttachTables::Lookup::Unknown);  // the target decides
  tables.publish(1, two);                                        // detached back down to two
  CHECK(tables.find(1, 1000, 1100) == AttachTables::Lookup::Inside);
}

TEST_CASE("a table left mid-rewrite is unknown, not waited for", "[rma][attach]") {
  std::vector<AttachTableLine> lines(1);
  AttachTables tables(lines.data());
  tables.publish(0, Regions{{1000, 100}});
  lines[0].sequence.fetch_add(1);  // an owner that stopped half-way (preempted, or dead)
  CHECK(tables.find(0, 1000, 1100) == AttachTables::Lookup::Unknown);
  lines[0].sequence.fetch_add(1);  // it finished
  CHECK(tables.find(0, 1000, 1100) == AttachTables::Lookup::Inside);
}

// Tearing is a matter of nanoseconds and rarely met here; the table left mid-rewrite above is
// the deterministic check that readers honour the sequence.
TEST_CASE("a read overlapping rewrites never mixes two versions of a table", "[rma][attach]") {
  std::vector<AttachTableLine> lines(1);
  AttachTables tables(lines.data());
  // Version a lists [1000k, 1000k + 100), version b [1000k + 500, 1000k + 510), for every k.
  // [1000k + 500, 1000k + 600) is inside neither; a read taking a region's base from b and
  // its length from a would call it inside.
  Regions a;
  Regions b;
  for (std::size_t k = 0; k < kListedRegions; ++k) {
    a.emplace_back(1000 * k, 100);
    b.emplace_back(1000 * k + 500, 10);
  }
  tables.publish(0, a);
  constexpr int kRewrites = 2000;  // ends with version a
  std::atomic<bool> done{false};
  std::thread owner([&] {
    for (int i = 0; i < kRewrites; ++i) tables.publish(0, (i % 2) == 0 ? b : a);
    done = true;
  });
  int torn = 0;
  for (uint64_t i = 0; !done.load(); ++i) {
    const uint64_t k = i % kListedRegions;
    if (tables.find(0, 1000 * k + 500, 1000 * k + 600) == AttachTables::Lookup::Inside) ++torn;
  }
  owner.join();
  CHECK(torn == 0);
  CHECK(tables.find(0, 1000, 1100) == AttachTables::Lookup::Inside);  // version a, whole
  CHECK(tables.find(0, 1500, 1510) == AttachTables::Lookup::Outside);
}
