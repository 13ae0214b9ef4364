#pragma once
// The shared-memory segment of one communicator whose ranks all run on this host, for its
// small blocking collectives (shm_collectives.h). Per rank: one flag line (what it has
// published, what it has finished reading) and kBuffers data slots of kSlotBytes.
//
// Every rank counts its shared-memory calls on the communicator; the same calls are made
// in the same order on every rank, so call `seq` is the same call everywhere, and the
// buffer a call uses is a function of `seq` that every rank computes alike. Flags only
// grow:
//  - ready[r] = s: rank r has finished every call before s and, if it writes in call s,
//    its slot of call s holds its data;
//  - done[r] = s: rank r has finished every call up to s (set where a reader would
//    otherwise hold a writer back until its next call: a bcast's non-roots, a reduce's
//    root).
// Slot reuse: before a rank writes one of its buffers in call s, every rank must have
// finished the call that last wrote that buffer (waitWritable; the writer remembers which
// call that was). Synchronising calls (barrier, allreduce, allgather, alltoall) alternate
// between two buffers: after one of them, in which a rank saw everyone's ready = s (so
// every rank finished s - 1), the buffer call s - 1 wrote is free without looking -- back-
// to-back synchronising calls never wait for it. Rooted calls (bcast, reduce), where the
// writers do not wait for the readers, cycle through all kBuffers: a bcast root runs up to
// kBuffers - 1 calls ahead of its slowest reader, as a pipelined point-to-point bcast would.
// A wait in call s depends only on other ranks' progress in calls up to s: no cycle.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "mpi/coll/shm_wait.h"
#include "transport/shm_segment.h"

namespace zmpi::mpi {
class Communicator;
class Engine;
}  // namespace zmpi::mpi

namespace zmpi::mpi::coll {

class ShmArea {
 public:
  // Bytes of one rank's slot: the largest operand a shared-memory call moves per rank
  // (see shm_collectives.h for how each collective uses it).
  static constexpr std::size_t kSlotBytes = 2048;
  static constexpr int kBuffers = 8;
  // Every rank scans every rank's flag line: beyond a few ranks, the point-to-point
  // algorithms' log p rounds win.
  static constexpr int kMaxRanks = 16;

  ShmArea(transport::SharedSegment segment, Engine& engine, int rank, int size);
  static std::size_t bytesFor(int size);

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Starts the next call: returns its sequence number (1 for the first).
  uint64_t begin() { return ++seq_; }
  // The buffer of call `seq` that synchronising calls use, and rooted ones.
  static int syncBuffer(uint64_t seq) { return static_cast<int>(seq % 2); }
  static int rootedBuffer(uint64_t seq) { return static_cast<int>(seq % kBuffers); }
  char* slot(int rank, int buffer) const;

  // This rank's flags (and a wake-up for anyone sleeping on them).
  void publishReady(uint64_t seq) { publishShm(line(rank_)->bell, line(rank_)->ready, seq); }
  void publishDone(uint64_t seq) { publishShm(line(rank_)->bell, line(rank_)->done, seq); }

  // Blocks until rank `rank` is ready for `seq`.
  void waitReady(int rank, uint64_t seq);
  // Blocks until every other rank is ready for `seq`.
  void waitAllReady(uint64_t seq);
  // Blocks until this rank may write its `buffer` in call `seq`, and records that it will.
  void waitWritable(int buffer, uint64_t seq);

 private:
  // One per rank, 128 bytes apart: adjacent-line prefetch fetches 64-byte lines in pairs.
  // Whoever waits for a rank's flags sleeps on that rank's doorbell: a publisher wakes only
  // its own waiters (on an oversubscribed host, a wake-up that finds nothing to do costs a
  // context switch).
  struct alignas(128) Line {
    std::atomic<uint64_t> ready;
    std::atomic<uint64_t> done;
    ShmDoorbell bell;
  };

  Line* line(int rank) const { return reinterpret_cast<Line*>(base()) + rank; }
  char* base() const { return static_cast<char*>(segment_.data()); }
  // What rank q is known to have finished: max(done, ready - 1).
  uint64_t finished(int q) const;

  transport::SharedSegment segment_;
  Engine& engine_;
  int rank_;
  int size_;
  uint64_t seq_ = 0;
  // Every other rank has finished every call up to here.
  uint64_t knownFinished_ = 0;
  // The call that last wrote each of this rank's buffers.
  uint64_t lastWrite_[kBuffers] = {};
};

// The communicator's area, set up by the first call that asks (on every rank the same
// call: it is collective, two small agreements), or null if the communicator does not
// qualify or the segment could not be set up on some rank (then never again). Qualifies:
// 2..kMaxRanks ranks all on this host, ZMPI_COLL_SHM and ZMPI_COLL_DIRECT not 0,
// ZMPI_TRANSPORT not capping the path below shm.
ShmArea* shmAreaOf(Communicator& comm);

// Whether shared-memory collectives are on for the job (ZMPI_COLL_SHM, ZMPI_COLL_DIRECT).
bool shmCollectivesEnabled();

}  // namespace zmpi::mpi::coll
