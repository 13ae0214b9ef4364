#include "runtime/zmpid/replay_guard.h"

namespace zmpi::runtime {

std::string ReplayGuard::admit(const std::string& sessionId, int64_t timestampMs, int64_t nowMs) {
  const int64_t skew = maxSkew_.count();
  forgetOlderThan(nowMs - skew);
  if (timestampMs < nowMs - skew || timestampMs > nowMs + skew) {
    return "request timestamp is " + std::to_string((timestampMs - nowMs) / 1000) +
           " s from this host's clock (allowed: " + std::to_string(skew / 1000) +
           " s); replayed, or the clocks differ (synchronise them, or raise --max-clock-skew)";
  }
  if (seen_.contains(sessionId)) return "request replayed (its session id was already used)";
  if (seen_.size() >= capacity_) return "too many launches within the clock-skew window; try again shortly";
  seen_.insert(sessionId);
  byTimestamp_.emplace(timestampMs, sessionId);
  return {};
}

void ReplayGuard::forgetOlderThan(int64_t timestampMs) {
  while (!byTimestamp_.empty() && byTimestamp_.begin()->first < timestampMs) {
    seen_.erase(byTimestamp_.begin()->second);
    byTimestamp_.erase(byTimestamp_.begin());
  }
}

}  // namespace zmpi::runtime
