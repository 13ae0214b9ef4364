#include "mpi/rma/attach_table.h"

#include <sched.h>

namespace zmpi::mpi::rma {
namespace {

constexpr uint32_t kUnlisted = UINT32_MAX;

// A rewrite is a few dozen stores; a reader that keeps meeting one (the owner preempted
// mid-way, or gone) gives up and lets the target answer instead.
constexpr int kReadAttempts = 1000;

}  // namespace

void AttachTables::publish(int rank, std::span<const std::pair<uintptr_t, std::size_t>> regions) {
  AttachTableLine& line = lines_[rank];
  // Odd: being rewritten. The stores below are releases, so a reader that sees one of
  // them also sees this and rejects its read.
  line.sequence.fetch_add(1);
  if (regions.size() > kListedRegions) {
    line.count.store(kUnlisted, std::memory_order_release);
  } else {
    for (std::size_t i = 0; i < regions.size(); ++i) {
      line.regions[i].base.store(regions[i].first, std::memory_order_release);
      line.regions[i].bytes.store(regions[i].second, std::memory_order_release);
    }
    line.count.store(static_cast<uint32_t>(regions.size()), std::memory_order_release);
  }
  line.sequence.fetch_add(1);  // even again, after (release) every store above
}

AttachTables::Lookup AttachTables::find(int rank, uint64_t low, uint64_t high) const {
  AttachTableLine& line = lines_[rank];
  for (int attempt = 0; attempt < kReadAttempts; ++attempt) {
    const uint32_t before = line.sequence.load(std::memory_order_acquire);
    if ((before & 1) != 0) {
      sched_yield();
      continue;
    }
    const uint32_t count = line.count.load(std::memory_order_acquire);
    Lookup found = Lookup::Outside;
    if (count > kListedRegions) {  // kUnlisted, or a table not to be trusted
      found = Lookup::Unknown;
    } else {
      for (uint32_t i = 0; i < count && found == Lookup::Outside; ++i) {
        const uint64_t base = line.regions[i].base.load(std::memory_order_acquire);
        const uint64_t bytes = line.regions[i].bytes.load(std::memory_order_acquire);
        if (low >= base && high <= base + bytes) found = Lookup::Inside;
      }
    }
    // A read-modify-write reads the latest sequence (ThreadSanitizer has no fences for the
    // usual fence and load); acquiring any rewrite's store made its first increment visible.
    if (line.sequence.fetch_add(0, std::memory_order_acq_rel) == before) return found;
  }
  return Lookup::Unknown;
}

}  // namespace zmpi::mpi::rma
