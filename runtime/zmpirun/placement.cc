#include "runtime/zmpirun/placement.h"

#include <numeric>

namespace zmpi::runtime {

Placement placeRanks(const std::vector<Host>& hosts, int np, bool oversubscribe) {
  const int slots =
      std::accumulate(hosts.begin(), hosts.end(), 0, [](int sum, const Host& h) { return sum + h.slots; });
  if (np == 0) np = slots;
  if (np > slots && !oversubscribe) {
    throw PlacementError(
        "not enough slots: " + std::to_string(np) + " ranks requested, " + std::to_string(slots) + " slots available",
        np, slots);
  }
  std::vector<int> perHost(hosts.size(), 0);
  int placed = 0;
  for (size_t h = 0; h < hosts.size() && placed < np; ++h) {
    const int take = std::min(hosts[h].slots, np - placed);
    perHost[h] = take;
    placed += take;
  }
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
  for (size_t h = 0; h < hosts.size(); ++h) {
    for (int local = 0; local < perHost[h]; ++local) {
      placement.ranks.push_back(RankPlacement{rank++, static_cast<int>(h), local, perHost[h]});
    }
  }
  return placement;
}

}  // namespace zmpi::runtime
