#pragma once
// The memory attached to a dynamic window (MPI_Win_attach), published by each rank in its
// window's host segment, so that an origin on the same host can check a target address
// range itself and then read or write the target's process (cross-memory attach) instead
// of sending the operation. Attach and detach are local calls: the owner rewrites its
// table under a sequence number that is odd while it writes; an origin reads the table
// between two equal even readings of it.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

namespace zmpi::mpi::rma {

// Regions a rank's table lists; with more attached, origins send their operations to it
// (its own list has no limit). Open MPI's osc/rdma refuses attaching more than 32 by default.
constexpr std::size_t kListedRegions = 64;

// Zero-filled is an empty table (a fresh segment).
struct alignas(64) AttachTableLine {
  std::atomic<uint32_t> sequence;
  std::atomic<uint32_t> count;  // regions listed, or kUnlisted
  struct Region {
    std::atomic<uint64_t> base;
    std::atomic<uint64_t> bytes;
  } regions[kListedRegions];
};

class AttachTables {
 public:
  enum class Lookup {
    Inside,   // every byte of the range is in one attached region
    Outside,  // in none of them: MPI_ERR_RMA_RANGE
    Unknown,  // more regions than listed, or the owner did not finish a rewrite in time
  };

  // `lines`: one table per rank in shared memory (bytesFor), zero-filled by their creator.
  explicit AttachTables(void* lines) : lines_(static_cast<AttachTableLine*>(lines)) {}

  static std::size_t bytesFor(int ranks) { return static_cast<std::size_t>(ranks) * sizeof(AttachTableLine); }

  // The owner (`rank`, one thread at a time): its regions as they are now.
  void publish(int rank, std::span<const std::pair<uintptr_t, std::size_t>> regions);

  // Where [low, high) of `rank`'s address space stands.
  Lookup find(int rank, uint64_t low, uint64_t high) const;

 private:
  AttachTableLine* lines_;
};

}  // namespace zmpi::mpi::rma
