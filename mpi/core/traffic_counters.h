#pragma once
// Messages and payload bytes a rank sent, per path, and its rendezvous sends: what MPI_T
// shows as performance variables (capi/tools_pvars.cc). Counted by the fabric where it
// already chooses the path of each send, and by the engine where it sends an Rts. One set
// per process (a rank has one world; unit tests that run several worlds as threads of one
// process see their sum), so that no header the engine's users include changes.
//
// An increment is a relaxed load and store, not an atomic add: no locked instruction on
// MPI_Send's path. Exact where one thread sends at a time (below MPI_THREAD_MULTIPLE, and
// under the engine's send serialisation); with several threads sending at once a count may
// miss a few, which statistics can afford and a hot path cannot.
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace zmpi::mpi {

struct TrafficCounters {
  enum class Path { Self, Shm, Ipc, Tcp };
  static constexpr int kPaths = 4;

  std::atomic<uint64_t> messages[kPaths] = {};
  std::atomic<uint64_t> bytes[kPaths] = {};

  void note(Path path, std::size_t payloadBytes) {
    const int at = static_cast<int>(path);
    messages[at].store(messages[at].load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    bytes[at].store(bytes[at].load(std::memory_order_relaxed) + payloadBytes, std::memory_order_relaxed);
  }
};

inline TrafficCounters processTraffic;

// Rendezvous sends cost a round trip each: an atomic add is nothing beside it.
inline std::atomic<uint64_t> processRendezvousSends{0};
inline void noteRendezvousSend() { processRendezvousSends.fetch_add(1, std::memory_order_relaxed); }

}  // namespace zmpi::mpi
