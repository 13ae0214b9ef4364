#pragma once
// Rejects replayed and stale launch requests. A signed Launch carries the launcher's wall
// clock and a fresh random session id; the agent accepts it only if the timestamp is
// within the allowed clock skew of its own clock and the session id was not seen before.
// An id is remembered until its timestamp is too old to pass anyway, so memory stays
// bounded by the rate of genuine (signed) launches, never by an attacker's traffic.
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>

namespace zmpi::runtime {

class ReplayGuard {
 public:
  ReplayGuard(std::chrono::milliseconds maxSkew, size_t capacity) : maxSkew_(maxSkew), capacity_(capacity) {}

  // Records the request; returns an empty string if it is fresh, else why it is refused.
  std::string admit(const std::string& sessionId, int64_t timestampMs, int64_t nowMs);
  size_t remembered() const { return seen_.size(); }

 private:
  void forgetOlderThan(int64_t timestampMs);

  std::chrono::milliseconds maxSkew_;
  size_t capacity_;
  std::unordered_set<std::string> seen_;
  std::multimap<int64_t, std::string> byTimestamp_;
};

}  // namespace zmpi::runtime
