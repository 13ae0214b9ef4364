#include "mpi/coll/select.h"

#include <mpi.h>

#include <cstdlib>
#include <string>

#include "mpi/comm/communicator.h"
#include "mpi/core/engine.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"

namespace zmpi::mpi::coll {
namespace {

// The forced algorithm's name, or "" (ZMPI_COLL_<collective>).
std::string forced(const char* collective) {
  const char* value = std::getenv((std::string("ZMPI_COLL_") + collective).c_str());
  return value != nullptr ? std::string(value) : std::string();
}

[[noreturn]] void unknown(const char* collective, const std::string& name, const char* choices) {
  fail(MPI_ERR_OTHER,
       std::string("ZMPI_COLL_") + collective + "=" + name + " names no algorithm; choose one of " + choices);
}

bool powerOfTwo(int n) { return n > 0 && (n & (n - 1)) == 0; }

int largestPowerOfTwoAtMost(int n) {
  int pof2 = 1;
  while (pof2 * 2 <= n) pof2 *= 2;
  return pof2;
}

RootedAlgorithm selectRooted(const char* collective, std::size_t totalBytes, int ranks) {
  const std::string name = forced(collective);
  if (name == "binomial") return RootedAlgorithm::Binomial;
  if (name == "linear") return RootedAlgorithm::Linear;
  if (!name.empty()) unknown(collective, name, "binomial, linear");
  return totalBytes >= kGatherLinearMinBytes || ranks <= 2 ? RootedAlgorithm::Linear : RootedAlgorithm::Binomial;
}

}  // namespace

std::optional<std::size_t> forcedSegmentBytes() {
  const char* value = std::getenv("ZMPI_COLL_SEGMENT_BYTES");
  if (value == nullptr) return std::nullopt;
  char* end = nullptr;
  const unsigned long long bytes = std::strtoull(value, &end, 10);
  if (end == value || *end != '\0' || value[0] == '-') {
    fail(MPI_ERR_OTHER, std::string("ZMPI_COLL_SEGMENT_BYTES=") + value + " is not a byte count (0: no pieces)");
  }
  return static_cast<std::size_t>(bytes);
}

std::size_t segmentBytes(Communicator& comm) {
  if (const std::optional<std::size_t> forced = forcedSegmentBytes()) return *forced;
  if (comm.size() <= 2) return 0;
  const Engine& engine = comm.world().engine();
  for (int r = 0; r < comm.size(); ++r) {
    if (r != comm.rank() && !engine.reachesThroughRings(comm.worldRankOf(r))) return 0;
  }
  return kSegmentBytes;
}

std::size_t pairEagerLimit(Communicator& comm) {
  if (comm.size() != 2) return 0;
  const Engine& engine = comm.world().engine();
  const int peer = comm.worldRankOf(1 - comm.rank());
  return engine.reachesThroughRings(peer) ? 0 : engine.eagerLimitTo(peer);
}

BcastAlgorithm selectBcast(std::size_t bytes, int ranks) {
  const std::string name = forced("BCAST");
  if (name == "binomial") return BcastAlgorithm::Binomial;
  if (name == "scatter_allgather") return BcastAlgorithm::ScatterAllgather;
  if (!name.empty()) unknown("BCAST", name, "binomial, scatter_allgather");
  return bytes >= kBcastScatterAllgatherMinBytes && ranks >= kBcastScatterAllgatherMinRanks
             ? BcastAlgorithm::ScatterAllgather
             : BcastAlgorithm::Binomial;
}

AllreduceAlgorithm selectAllreduce(std::size_t bytes, std::size_t count, int ranks, bool commutative, bool splittable,
                                   std::size_t pairEagerLimit) {
  // Rabenseifner cuts the operand into p' chunks; with fewer elements than that the
  // halving rounds move empty chunks and recursive doubling is strictly better.
  const bool rabenseifnerFits = splittable && count >= static_cast<std::size_t>(largestPowerOfTwoAtMost(ranks));
  const bool ringFits = splittable && commutative && count >= static_cast<std::size_t>(ranks);
  const std::string name = forced("ALLREDUCE");
  if (name == "recursive_doubling") return AllreduceAlgorithm::RecursiveDoubling;
  if (name == "rabenseifner" && rabenseifnerFits) return AllreduceAlgorithm::Rabenseifner;
  if (name == "ring" && ringFits) return AllreduceAlgorithm::Ring;
  if (!name.empty() && name != "rabenseifner" && name != "ring") {
    unknown("ALLREDUCE", name, "recursive_doubling, rabenseifner, ring");
  }
  const bool oneExchangeWins =
      ranks == 2 && pairEagerLimit > 0 && bytes > 2 * pairEagerLimit && bytes <= kAllreduceTwoRanksDoublingMaxBytes;
  return bytes >= kAllreduceLargeMinBytes && rabenseifnerFits && ranks > 1 && !oneExchangeWins
             ? AllreduceAlgorithm::Rabenseifner
             : AllreduceAlgorithm::RecursiveDoubling;
}

AllgatherAlgorithm selectAllgather(std::size_t totalBytes, int ranks) {
  const std::string name = forced("ALLGATHER");
  if (name == "recursive_doubling" && powerOfTwo(ranks)) return AllgatherAlgorithm::RecursiveDoubling;
  if (name == "bruck") return AllgatherAlgorithm::Bruck;
  if (name == "ring") return AllgatherAlgorithm::Ring;
  if (!name.empty() && name != "recursive_doubling") unknown("ALLGATHER", name, "recursive_doubling, bruck, ring");
  if (totalBytes >= kAllgatherRingMinBytes) return AllgatherAlgorithm::Ring;
  return powerOfTwo(ranks) ? AllgatherAlgorithm::RecursiveDoubling : AllgatherAlgorithm::Bruck;
}

RootedAlgorithm selectGather(std::size_t totalBytes, int ranks) { return selectRooted("GATHER", totalBytes, ranks); }

RootedAlgorithm selectScatter(std::size_t totalBytes, int ranks) { return selectRooted("SCATTER", totalBytes, ranks); }

}  // namespace zmpi::mpi::coll
