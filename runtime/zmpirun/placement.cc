#include "runtime/zmpirun/placement.h"

#include <numeric>

namespace zmpi::runtime {

namespace {

// How many ranks each host takes: by slot, the first hosts' slots fill first; by node, one
// rank per host with a free slot in turn. Either way no host exceeds its slots until all are
// full; the rest (oversubscription) is dealt in turn, up to each host's max_slots.
std::vector<int> countPerHost(const std::vector<Host>& hosts, int np, MapBy mapBy, int& placed) {
  std::vector<int> perHost(hosts.size(), 0);
  placed = 0;
  if (mapBy == MapBy::Slot) {
    for (size_t h = 0; h < hosts.size() && placed < np; ++h) {
      const int take = std::min(hosts[h].slots, np - placed);
      perHost[h] = take;
      placed += take;
    }
    return perHost;
  }
  for (bool any = true; any && placed < np;) {
    any = false;
    for (size_t h = 0; h < hosts.size() && placed < np; ++h) {
      if (perHost[h] >= hosts[h].slots) continue;
      ++perHost[h];
      ++placed;
      any = true;
    }
  }
  return perHost;
}

}  // namespace

Placement placeRanks(const std::vector<Host>& hosts, int np, bool oversubscribe, MapBy mapBy) {
  const int slots =
      std::accumulate(hosts.begin(), hosts.end(), 0, [](int sum, const Host& h) { return sum + h.slots; });
  if (np == 0) np = slots;
  if (np > slots && !oversubscribe) {
    throw PlacementError(
        "not enough slots: " + std::to_string(np) + " ranks requested, " + std::to_string(slots) + " slots available",
        np, slots);
  }
  int placed = 0;
  std::vector<int> perHost = countPerHost(hosts, np, mapBy, placed);
  // Oversubscribed: deal the rest out one per host in turn, skipping hosts at max_slots.
  while (placed < np) {
    bool any = false;
    for (size_t h = 0; h < hosts.size() && placed < np; ++h) {
      if (hosts[h].maxSlots > 0 && perHost[h] >= hosts[h].maxSlots) continue;
      ++perHost[h];
      ++placed;
      any = true;
    }
    if (!any) {
      int limit = 0;
      for (const Host& h : hosts) limit += h.maxSlots;
      throw PlacementError("the hosts' max_slots allow at most " + std::to_string(limit) + " ranks, " +
                               std::to_string(np) + " requested",
                           np, limit);
    }
  }
  Placement placement;
  placement.universeSize = std::max(np, slots);
  int rank = 0;
  if (mapBy == MapBy::Slot) {
    for (size_t h = 0; h < hosts.size(); ++h) {
      for (int local = 0; local < perHost[h]; ++local) {
        placement.ranks.push_back(RankPlacement{rank++, static_cast<int>(h), local, perHost[h]});
      }
    }
    return placement;
  }
  // By node: consecutive ranks on different hosts, each host taking its count in turn.
  std::vector<int> given(hosts.size(), 0);
  while (rank < np) {
    for (size_t h = 0; h < hosts.size() && rank < np; ++h) {
      if (given[h] == perHost[h]) continue;
      placement.ranks.push_back(RankPlacement{rank++, static_cast<int>(h), given[h]++, perHost[h]});
    }
  }
  return placement;
}

}  // namespace zmpi::runtime
