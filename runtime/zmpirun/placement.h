#pragma once
// Which rank runs where: ranks fill each host's slots in order (Open MPI's default
// "by slot" mapping), or with --map-by node are dealt one per host in turn (rank r on the
// r-th host modulo their count, while they have slots). More ranks than slots is refused
// unless oversubscription is allowed, in which case the extra ranks are dealt round-robin
// over the hosts.
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/zmpirun/hosts.h"

namespace zmpi::runtime {

struct RankPlacement {
  int rank = 0;
  int hostIndex = 0;  // into the host list
  int localRank = 0;  // among the ranks on the same host
  int localSize = 0;
};

struct Placement {
  std::vector<RankPlacement> ranks;
  int universeSize = 0;  // MPI_UNIVERSE_SIZE: all slots, or the job size if larger
};

// The job does not fit: too many ranks for the slots (and no --oversubscribe), or more
// than a host's max_slots. what() is the short reason; the caller prints the long story.
class PlacementError : public std::runtime_error {
 public:
  PlacementError(const std::string& what, int requested, int available)
      : std::runtime_error(what), requested_(requested), available_(available) {}
  int requested() const { return requested_; }
  int available() const { return available_; }

 private:
  int requested_;
  int available_;
};

enum class MapBy { Slot, Node };

// Places `np` ranks (0: one per slot) on `hosts`.
Placement placeRanks(const std::vector<Host>& hosts, int np, bool oversubscribe, MapBy mapBy = MapBy::Slot);

}  // namespace zmpi::runtime
