#pragma once
// The shared-memory segment of one communicator whose ranks all run on this host, for its
// small blocking collectives (shm_collectives.h). Per rank: one flag line (what it has
// published, what it has finished reading), two slots of kSlotBytes for synchronising calls
// (and two stamped lines for their smallest operands),
// and for rooted ones a ring of kSmallUnits stamped units for small operands and a ring of
// kLargeSlots slots for the others.
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
// between the two slots: after one of them, in which a rank saw everyone's ready = s (so
// every rank finished s - 1), the slot call s - 1 wrote is free without looking -- back-
// to-back synchronising calls never wait for it. Operands of up to kStampedSyncBytes take
// one of two stamped lines instead of a slot (the stamp, then the operand, in one cache
// line): readers wait on the writers' stamps, one cache-line transfer per writer instead
// of two (the flag line, then the slot), and the writer raises ready as well, for the waits
// that look at it. Larger operands keep the slots and the ready flag: a reader spinning on
// the stamp's line would take it from the writer while the writer still fills the rest.
// Rooted calls (bcast, reduce), where the
// writers do not wait for the readers, take the next buffer of one of two rings (by
// operand size; cursors every rank advances alike): a bcast root runs up to
// kSmallUnits - 1 small calls (kLargeSlots - 1 large ones) ahead of its slowest reader, as
// a pipelined point-to-point bcast would. A small unit starts with a stamp, the number of
// the call whose data it holds: a reader waits on the stamp, in the cache line that holds
// the first bytes of the data, instead of on the writer's ready flag and then the data
// (one cache-line transfer per call instead of two). Units only ever hold one operand
// each, so a stamp word is never a previous call's data.
// A wait in call s depends only on other ranks' progress in calls up to s: no cycle.
//
// Operands above a slot go through each rank's staging ring (shm_large.h): kChunks chunks
// of chunkBytes(), one per round. Calls that use it number their rounds with a second
// counter every rank advances alike (beginRounds), and each rank's line says how far it
// has got: wrote = g (its chunk of round g holds its data), reduced = g (an allreduce's
// reduced part of round g is in its chunk), read = g (it has finished reading round g and
// every earlier one; a rank that reads nothing in a call raises it at the end). A rank
// writes round g into chunk g mod kChunks once every other rank has read round
// g - kChunks (waitChunkWritable): writers run up to kChunks rounds ahead of the slowest
// reader, and never wait for a rank that is behind only in calls it reads nothing from.
//
// Large alltoall uses the same staging space otherwise (shm_large.h): as one region per
// pair, rank r's staging space cut into p - 1 parts (pairBytes(); where they take more than
// the ring, the staging space is that much larger), each of kPairSlots pieces for one
// reader. Each pair counts the pieces its writer has staged (sent, in the writer's pair
// line) and its reader has copied out (taken, in the reader's), across calls: piece k
// takes slot k mod kPairSlots once the reader has taken piece k - kPairSlots. No rank
// waits for a round every rank must reach: a writer stages for whichever reader has room
// and a reader takes from whichever writer has staged, and only when none can go on does
// a rank sleep, on its own inbox doorbell, which the peers ring as they stage for it or
// free its room.
// An alltoall takes all kChunks rounds of the ring (beginPairs): it waits for every rank
// to have read the rounds before (unless the staging space was last used by an alltoall,
// whose counters already order it), and raises `read` to its last round when it has taken
// everything, so the next ring round waits for every reader of the pair regions.
#include <algorithm>
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
  static constexpr std::size_t kUnitBytes = 512;
  static constexpr std::size_t kStampBytes = 16;  // keeps the data 16-byte aligned
  static constexpr std::size_t kSmallBytes = kUnitBytes - kStampBytes;
  // Deep enough that a root with more ranks than cores runs a time slice ahead instead of
  // yielding to a descheduled reader every few calls (mpi/coll/README.md: 32 and 4 were
  // 2-10x slower for 4-8 ranks bcasting in a loop).
  static constexpr int kSmallUnits = 256;
  static constexpr int kLargeSlots = 32;
  // Every rank scans every rank's flag line: beyond a few ranks, the point-to-point
  // algorithms' log p rounds win.
  static constexpr int kMaxRanks = 16;
  // The staging ring of large operands (shm_large.h): kChunks chunks of chunkBytes() per
  // rank (ZMPI_COLL_SHM_CHUNK_BYTES, default kChunkBytes; the job's environment, so alike
  // on every rank). Pages are touched only when used.
  static constexpr int kChunks = 4;
  static constexpr std::size_t kChunkBytes = 128 * 1024;
  static std::size_t chunkBytes();
  // Slots of a pair region (alltoall, above).
  static constexpr int kPairSlots = 2;
  // A pair region's bytes (ZMPI_COLL_SHM_PAIR_BYTES, default kPairBytes), while p - 1 of
  // them fit in kPairSpaceBytes; never less than the ring's share. With more ranks than
  // cores a writer can then stage half a MiB for a descheduled reader before it must wait
  // for it (mpi/coll/README.md: 1-4 MiB blocks took 20-30 % less time at 4 and 8 ranks than
  // with the ring's 170 and 73 KiB).
  static constexpr std::size_t kPairBytes = 512 * 1024;
  static constexpr std::size_t kPairSpaceBytes = 2 * 1024 * 1024;
  static std::size_t pairBytes(int size);
  // Bytes of one of its kPairSlots pieces: whole cache lines.
  static std::size_t pairPieceFor(int size) {
    return std::max<std::size_t>(pairBytes(size) / kPairSlots / 64 * 64, 64);
  }
  // A rank's staging space: the ring's chunks, or its p - 1 pair regions if larger.
  static std::size_t stagingBytes(int size);

  // Without a segment until attach(): `sleeperFences` says every rank registered for them
  // (shm_wait.h).
  ShmArea(Engine& engine, int rank, int size);
  void attach(transport::SharedSegment segment, bool sleeperFences);
  bool attached() const { return segment_.data() != nullptr; }
  int countCallBeforeSetUp() { return ++callsBeforeSetUp_; }
  static std::size_t bytesFor(int size);  // the segment's size

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Starts the next call: returns its sequence number (1 for the first).
  uint64_t begin() { return ++seq_; }
  // A buffer: a synchronising call's slot (call `seq`'s), or a rooted call's next unit
  // (stamped) or large slot for `bytes` (call once per rooted call, on every rank).
  struct Buffer {
    int index;  // into the rank's buffers: 2 slots, kSmallUnits units, kLargeSlots slots, 2 lines
    bool stamped;
  };
  // A synchronising call's operands of up to this many bytes (per rank) take a stamped line.
  static constexpr std::size_t kStampedSyncBytes = 64 - kStampBytes;
  static Buffer syncBuffer(uint64_t seq, std::size_t bytes) {
    const int parity = static_cast<int>(seq % 2);
    if (bytes <= kStampedSyncBytes) return {kSyncLineIndex + parity, true};
    return {parity, false};
  }
  Buffer rootedBuffer(std::size_t bytes);
  char* slot(int rank, Buffer buffer) const;  // where the data goes

  // This rank's flags (and a wake-up for anyone sleeping on them).
  void publishReady(uint64_t seq) { publishShm(line(rank_)->bell, line(rank_)->ready, seq, sleeperFences_); }
  void publishDone(uint64_t seq) { publishShm(line(rank_)->bell, line(rank_)->done, seq, sleeperFences_); }
  // Stamps this rank's `buffer` as holding call `seq`'s data.
  void publishStamp(Buffer buffer, uint64_t seq) {
    publishShm(line(rank_)->bell, stamp(rank_, buffer), seq, sleeperFences_);
  }
  // A synchronising call's data is in this rank's `buffer` (syncBuffer): the stamp if it
  // has one, for its readers, and ready, for whoever waits on this rank's progress. One
  // ring for both (publishShm's fence orders both stores before its look for sleepers): a
  // second would find the woken sleeper still counted and wake nobody at a system call's cost.
  void publishSync(Buffer buffer, uint64_t seq) {
    if (buffer.stamped) stamp(rank_, buffer).store(seq, std::memory_order_release);
    publishReady(seq);
  }
  // Blocks until every other rank has published its data of call `seq` (publishSync).
  void waitSync(Buffer buffer, uint64_t seq) {
    if (buffer.stamped) {
      waitAllStamps(buffer, seq);
    } else {
      waitAllReady(seq);
    }
  }

  // Blocks until rank `rank` is ready for `seq`.
  void waitReady(int rank, uint64_t seq);
  // Blocks until every other rank is ready for `seq`.
  void waitAllReady(uint64_t seq);
  // Blocks until rank `rank`'s stamped `buffer` holds call `seq`'s data.
  void waitStamp(int rank, Buffer buffer, uint64_t seq);
  // The same for every other rank.
  void waitAllStamps(Buffer buffer, uint64_t seq);
  // Blocks until this rank may write its `buffer` in call `seq`, and records that it will.
  void waitWritable(Buffer buffer, uint64_t seq);

  // Rounds of the staging ring (see the top of this file). Returns the first of the next
  // `rounds` rounds (every rank asks for the same counts in the same order).
  uint64_t beginRounds(uint64_t rounds) {
    pairsLast_ = false;
    const uint64_t first = round_ + 1;
    round_ += rounds;
    return first;
  }
  // Rank `rank`'s chunk for round `round`.
  char* chunk(int rank, uint64_t round) const;
  void publishWrote(uint64_t round) { publishShm(line(rank_)->bell, line(rank_)->wrote, round, sleeperFences_); }
  void publishReduced(uint64_t round) { publishShm(line(rank_)->bell, line(rank_)->reduced, round, sleeperFences_); }
  void publishRead(uint64_t round) { publishShm(line(rank_)->bell, line(rank_)->read, round, sleeperFences_); }
  // Blocks until rank `rank` has raised `wrote` (or `reduced`) to `round`.
  void waitWrote(int rank, uint64_t round) { waitFlag(rank, line(rank)->wrote, round); }
  void waitReduced(int rank, uint64_t round) { waitFlag(rank, line(rank)->reduced, round); }
  // Blocks until this rank may write its chunk of `round`: every other rank has read the
  // round that last used it.
  void waitChunkWritable(uint64_t round);

  // Pair regions (alltoall, see the top of this file). beginPairs starts a call's use of the
  // staging space and returns the round to raise `read` to once this rank has taken all
  // its pieces (call it once per alltoall, on every rank).
  uint64_t beginPairs();
  // Bytes of a piece: the same on every rank (from the size and pairBytes()).
  std::size_t pairPiece() const { return pairPiece_; }
  // Where `writer` stages its piece `piece` (counted across calls) for `reader`.
  char* pairSlot(int writer, int reader, uint64_t piece) const;
  // Pieces this rank has staged for `q` and taken from `q` (its own counts).
  uint64_t& sentTo(int q) { return sentTo_[q]; }
  uint64_t& takenFrom(int q) { return takenFrom_[q]; }
  // What rank `q` has staged for this rank and taken from it.
  uint64_t sentBy(int q) const { return pairs(q)->sent[rank_].load(std::memory_order_acquire); }
  uint64_t takenBy(int q) const { return pairs(q)->taken[rank_].load(std::memory_order_acquire); }
  // This rank's counts, published (ringing `q`'s inbox).
  void publishSent(int q) { publishShm(line(q)->inbox, pairs(rank_)->sent[q], sentTo_[q], sleeperFences_); }
  void publishTaken(int q) { publishShm(line(q)->inbox, pairs(rank_)->taken[q], takenFrom_[q], sleeperFences_); }
  // Blocks until `ready()` holds, on this rank's inbox (peers ring it as they publish a
  // count for this rank).
  void waitInbox(transport::FunctionRef<bool()> ready) { waitShm(engine_, line(rank_)->inbox, ready, sleeperFences_); }

 private:
  // One per rank, 128 bytes apart: adjacent-line prefetch fetches 64-byte lines in pairs.
  // Whoever waits for a rank's flags sleeps on that rank's doorbell: a publisher wakes only
  // its own waiters (on an oversubscribed host, a wake-up that finds nothing to do costs a
  // context switch).
  struct alignas(128) Line {
    std::atomic<uint64_t> ready;
    std::atomic<uint64_t> done;
    ShmDoorbell bell;
    std::atomic<uint64_t> wrote;
    std::atomic<uint64_t> reduced;
    std::atomic<uint64_t> read;
    ShmDoorbell inbox;  // rung by the peers' pair counts for this rank
  };
  // A rank's pair counts, per peer (alltoall): pieces staged for it, pieces taken from it.
  struct alignas(128) Pairs {
    std::atomic<uint64_t> sent[kMaxRanks];
    std::atomic<uint64_t> taken[kMaxRanks];
  };

  static constexpr int kSyncLineIndex = 2 + kSmallUnits + kLargeSlots;
  static constexpr int kBuffers = kSyncLineIndex + 2;
  // A stamped line of a synchronising call, alone in its adjacent-line prefetch pair.
  static constexpr std::size_t kSyncLineBytes = 128;
  static constexpr std::size_t kRankBytes =
      (2 + kLargeSlots) * kSlotBytes + kSmallUnits * kUnitBytes + 2 * kSyncLineBytes;

  Line* line(int rank) const { return reinterpret_cast<Line*>(base()) + rank; }
  Pairs* pairs(int rank) const { return reinterpret_cast<Pairs*>(base() + size_ * sizeof(Line)) + rank; }
  char* base() const { return static_cast<char*>(segment_.data()); }
  char* staging(int rank) const;  // where the rank's staging space starts
  char* buffer(int rank, Buffer buffer) const;
  std::atomic<uint64_t>& stamp(int rank, Buffer b) const {
    return *reinterpret_cast<std::atomic<uint64_t>*>(buffer(rank, b));
  }
  // What rank q is known to have finished: max(done, ready - 1).
  uint64_t finished(int q) const;
  void waitFlag(int rank, std::atomic<uint64_t>& flag, uint64_t value);
  // Where the staging rings start: after every rank's small buffers, page-aligned.
  static std::size_t stagingOffset(int size);

  transport::SharedSegment segment_;
  Engine& engine_;
  int rank_;
  int size_;
  bool sleeperFences_ = false;
  int callsBeforeSetUp_ = 0;
  uint64_t seq_ = 0;
  // The next unit and large slot a rooted call takes.
  int smallCursor_ = 0;
  int largeCursor_ = 0;
  // Every other rank has finished every call up to here.
  uint64_t knownFinished_ = 0;
  // The call that last wrote each of this rank's buffers.
  uint64_t lastWrite_[kBuffers] = {};
  std::size_t chunkBytes_ = chunkBytes();
  std::size_t stagingBytes_;
  uint64_t round_ = 0;
  // Every other rank has read every round up to here.
  uint64_t knownRead_ = 0;
  // The staging space's last user was an alltoall (beginPairs): the next needs no wait.
  bool pairsLast_ = false;
  std::size_t pairPiece_ = 0;
  uint64_t sentTo_[kMaxRanks] = {};
  uint64_t takenFrom_[kMaxRanks] = {};
};

// The communicator's area, or null: when the communicator does not qualify, for its first
// callsBeforeSetUp() qualifying calls, and for good if the segment could not be set up on
// some rank. The call after those sets it up (on every rank the same call: it is
// collective, two small agreements). Qualifies: 2..kMaxRanks ranks all on this host,
// ZMPI_COLL_SHM and ZMPI_COLL_DIRECT not 0, ZMPI_TRANSPORT not capping the path below shm.
ShmArea* shmAreaOf(Communicator& comm);

// ZMPI_COLL_SHM_AFTER, else kCallsBeforeSetUp (the same on every rank: the job's
// environment).
inline constexpr int kCallsBeforeSetUp = 2;
int callsBeforeSetUp();

// Whether shared-memory collectives are on for the job (ZMPI_COLL_SHM, ZMPI_COLL_DIRECT).
bool shmCollectivesEnabled();
// Whether calls above a slot take the staging rings (shm_large.h): on unless
// ZMPI_COLL_SHM_LARGE=0 (comparisons), then they keep the message paths.
bool shmLargeEnabled();

}  // namespace zmpi::mpi::coll
