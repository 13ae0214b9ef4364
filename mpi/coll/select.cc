#include "mpi/coll/select.h"

#include <mpi.h>

#include <string>

#include "mpi/coll/coll_settings.h"
#include "mpi/comm/communicator.h"
#include "mpi/core/engine.h"
#include "mpi/core/environment.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"

namespace zmpi::mpi::coll {
namespace {

// The forced algorithm's name, or "" (ZMPI_COLL_<collective>; the setting checks the name).
// Read at each call, as before the registry: tests change it between calls in one process,
// and a collective call costs far more than one getenv.
std::string forced(const transport::StringSetting& setting) { return mpi::setting(setting); }

bool powerOfTwo(int n) { return n > 0 && (n & (n - 1)) == 0; }

int largestPowerOfTwoAtMost(int n) {
  int pof2 = 1;
  while (pof2 * 2 <= n) pof2 *= 2;
  return pof2;
}

RootedAlgorithm selectRooted(const transport::StringSetting& setting, std::size_t totalBytes, int ranks) {
  const std::string name = forced(setting);
  if (name == "binomial") return RootedAlgorithm::Binomial;
  if (name == "linear") return RootedAlgorithm::Linear;
  return totalBytes >= kGatherLinearMinBytes || ranks <= 2 ? RootedAlgorithm::Linear : RootedAlgorithm::Binomial;
}

}  // namespace

std::optional<std::size_t> forcedSegmentBytes() {
  // At each call, as forced() (above).
  const std::optional<long long> bytes = settingIfSet(kSegmentBytesSetting);
  if (!bytes) return std::nullopt;
  return static_cast<std::size_t>(*bytes);
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
  const std::string name = forced(kBcastAlgorithmSetting);
  if (name == "binomial") return BcastAlgorithm::Binomial;
  if (name == "scatter_allgather") return BcastAlgorithm::ScatterAllgather;
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
  const std::string name = forced(kAllreduceAlgorithmSetting);
  if (name == "recursive_doubling") return AllreduceAlgorithm::RecursiveDoubling;
  if (name == "rabenseifner" && rabenseifnerFits) return AllreduceAlgorithm::Rabenseifner;
  if (name == "ring" && ringFits) return AllreduceAlgorithm::Ring;
  const bool oneExchangeWins =
      ranks == 2 && pairEagerLimit > 0 && bytes > 2 * pairEagerLimit && bytes <= kAllreduceTwoRanksDoublingMaxBytes;
  return bytes >= kAllreduceLargeMinBytes && rabenseifnerFits && ranks > 1 && !oneExchangeWins
             ? AllreduceAlgorithm::Rabenseifner
             : AllreduceAlgorithm::RecursiveDoubling;
}

AllgatherAlgorithm selectAllgather(std::size_t totalBytes, int ranks) {
  const std::string name = forced(kAllgatherAlgorithmSetting);
  if (name == "recursive_doubling" && powerOfTwo(ranks)) return AllgatherAlgorithm::RecursiveDoubling;
  if (name == "bruck") return AllgatherAlgorithm::Bruck;
  if (name == "ring") return AllgatherAlgorithm::Ring;
  if (totalBytes >= kAllgatherRingMinBytes) return AllgatherAlgorithm::Ring;
  return powerOfTwo(ranks) ? AllgatherAlgorithm::RecursiveDoubling : AllgatherAlgorithm::Bruck;
}

RootedAlgorithm selectGather(std::size_t totalBytes, int ranks) {
  return selectRooted(kGatherAlgorithmSetting, totalBytes, ranks);
}

RootedAlgorithm selectScatter(std::size_t totalBytes, int ranks) {
  return selectRooted(kScatterAlgorithmSetting, totalBytes, ranks);
}

}  // namespace zmpi::mpi::coll
