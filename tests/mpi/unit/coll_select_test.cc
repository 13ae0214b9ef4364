// Algorithm selection: defaults by size and rank count, ZMPI_COLL_* overrides, fallbacks
// when a forced algorithm cannot serve a call, and that plans follow the selection.
#include <catch2/catch.hpp>

#include "coll_harness.h"
#include "mpi/coll/select.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::coll;
using namespace zmpi::mpi::testing;

TEST_CASE("default choices follow message size and rank count", "[coll][select]") {
  CHECK(selectBcast(8, 8) == BcastAlgorithm::Binomial);
  CHECK(selectBcast(kBcastScatterAllgatherMinBytes, 8) == BcastAlgorithm::ScatterAllgather);
  CHECK(selectBcast(kBcastScatterAllgatherMinBytes, 2) == BcastAlgorithm::Binomial);
  CHECK(selectBcast(kBcastScatterAllgatherMinBytes, 4) == BcastAlgorithm::Binomial);

  CHECK(selectAllreduce(64, 16, 8, true, true) == AllreduceAlgorithm::RecursiveDoubling);
  CHECK(selectAllreduce(kAllreduceLargeMinBytes, 16384, 8, true, true) == AllreduceAlgorithm::Rabenseifner);
  CHECK(selectAllreduce(kAllreduceLargeMinBytes, 16384, 8, false, true) == AllreduceAlgorithm::Rabenseifner);
  CHECK(selectAllreduce(kAllreduceLargeMinBytes, 16384, 8, true, false) == AllreduceAlgorithm::RecursiveDoubling);
  CHECK(selectAllreduce(kAllreduceLargeMinBytes, 3, 8, true, true) == AllreduceAlgorithm::RecursiveDoubling);
  // 2 ranks over tcp: one exchange while Rabenseifner's halves would each need a rendezvous.
  constexpr std::size_t eager = 32 * 1024;
  CHECK(selectAllreduce(2 * eager, 16384, 2, true, true, eager) == AllreduceAlgorithm::Rabenseifner);  // halves eager
  CHECK(selectAllreduce(256 * 1024, 65536, 2, true, true, eager) == AllreduceAlgorithm::RecursiveDoubling);
  CHECK(selectAllreduce(kAllreduceTwoRanksDoublingMaxBytes, 1 << 18, 2, true, true, eager) ==
        AllreduceAlgorithm::RecursiveDoubling);
  CHECK(selectAllreduce(2 * kAllreduceTwoRanksDoublingMaxBytes, 1 << 19, 2, true, true, eager) ==
        AllreduceAlgorithm::Rabenseifner);
  CHECK(selectAllreduce(256 * 1024, 65536, 2, true, true) == AllreduceAlgorithm::Rabenseifner);  // same host
  CHECK(selectAllreduce(256 * 1024, 65536, 4, true, true, eager) == AllreduceAlgorithm::Rabenseifner);

  CHECK(selectAllgather(64, 8) == AllgatherAlgorithm::RecursiveDoubling);
  CHECK(selectAllgather(64, 6) == AllgatherAlgorithm::Bruck);
  CHECK(selectAllgather(kAllgatherRingMinBytes, 8) == AllgatherAlgorithm::Ring);

  CHECK(selectGather(64, 8) == RootedAlgorithm::Binomial);
  CHECK(selectGather(kGatherLinearMinBytes, 8) == RootedAlgorithm::Linear);
  CHECK(selectScatter(64, 8) == RootedAlgorithm::Binomial);
}

TEST_CASE("ZMPI_COLL_* forces an algorithm where it applies", "[coll][select]") {
  {
    ForceAlgorithm force("ALLREDUCE", "ring");
    CHECK(selectAllreduce(64, 16, 8, true, true) == AllreduceAlgorithm::Ring);
    // Ring needs a commutative op: a non-commutative one gets the default.
    CHECK(selectAllreduce(64, 16, 8, false, true) == AllreduceAlgorithm::RecursiveDoubling);
  }
  {
    ForceAlgorithm force("ALLREDUCE", "rabenseifner");  // wins over the 2-rank tcp rule
    CHECK(selectAllreduce(256 * 1024, 65536, 2, true, true, 32 * 1024) == AllreduceAlgorithm::Rabenseifner);
  }
  {
    ForceAlgorithm force("ALLGATHER", "recursive_doubling");
    CHECK(selectAllgather(64, 8) == AllgatherAlgorithm::RecursiveDoubling);
    CHECK(selectAllgather(64, 6) == AllgatherAlgorithm::Bruck);  // powers of two only
  }
  {
    ForceAlgorithm force("BCAST", "scatter_allgather");
    CHECK(selectBcast(8, 2) == BcastAlgorithm::ScatterAllgather);
  }
  {
    ForceAlgorithm force("BCAST", "carrier_pigeon");
    CHECK_THROWS_AS(selectBcast(8, 2), MpiError);
  }
}

TEST_CASE("plans use the selected algorithm", "[coll][select]") {
  const TestSum sum;
  auto allreducePattern = [&](const char* algorithm) {
    ForceAlgorithm force("ALLREDUCE", algorithm);
    auto network = runRanks(4, [&](World& world) {
      std::vector<int> in(8, 1), out(8);
      run(*planAllreduce(world.commWorld(), in.data(), out.data(), 8, intType(), sum));
    });
    return sentBy(*network, 0);
  };
  CHECK(allreducePattern("ring") == std::vector<Sent>(6, {1, 8}));
  CHECK(allreducePattern("rabenseifner") == std::vector<Sent>{{1, 16}, {2, 8}, {2, 8}, {1, 16}});
  CHECK(allreducePattern("recursive_doubling") == std::vector<Sent>{{1, 32}, {2, 32}});
}
