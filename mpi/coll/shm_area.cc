#include "mpi/coll/shm_area.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mpi/coll/coll_settings.h"
#include "mpi/comm/agreement.h"
#include "mpi/comm/communicator.h"
#include "mpi/core/engine.h"
#include "mpi/core/environment.h"
#include "mpi/core/path_setting.h"
#include "mpi/core/world.h"
#include "transport/errors.h"
#include "transport/job_files.h"
#include "transport/log.h"

namespace zmpi::mpi::coll {
namespace {

const transport::Experiment kCollShmExperiment{
    "coll-shm", true, "ZMPI_COLL_SHM",
    "blocking collectives among ranks of one host go through a shared segment per communicator"};
const transport::Experiment kCollShmLargeExperiment{
    "coll-shm-large", true, "ZMPI_COLL_SHM_LARGE",
    "larger bcast, allreduce, allgather and alltoall take the shared segment's staging chunks too"};
// Values outside these ranges were clamped into them before the registry; now refused.
const transport::IntSetting kCollShmAfterSetting{
    "ZMPI_COLL_SHM_AFTER",
    kCallsBeforeSetUp,
    {0, 1 << 20},
    "calls",
    transport::Level::Tuning,
    "collective calls on a communicator before its shared segment is set up"};
const transport::IntSetting kCollShmPairSetting{"ZMPI_COLL_SHM_PAIR_BYTES",
                                                static_cast<long long>(ShmArea::kPairBytes),
                                                {4096, 4 << 20},
                                                "bytes",
                                                transport::Level::Tuning,
                                                "shared-segment space per pair of ranks (rounded down to 64 bytes)"};
const transport::IntSetting kCollShmChunkSetting{"ZMPI_COLL_SHM_CHUNK_BYTES",
                                                 static_cast<long long>(ShmArea::kChunkBytes),
                                                 {4096, 4 << 20},
                                                 "bytes",
                                                 transport::Level::Tuning,
                                                 "the shared segment's staging chunk (rounded down to 4 KiB)"};

// Only what is the same on every rank of the job: its environment and the communicator's
// placement. A rank's own failure to map the segment is agreed on during set-up.
bool qualifies(Communicator& comm) {
  if (!shmCollectivesEnabled() || comm.size() < 2 || comm.size() > ShmArea::kMaxRanks) return false;
  World& world = comm.world();
  for (int r = 0; r < comm.size(); ++r) {
    if (world.hostOf(comm.worldRankOf(r)) != world.host()) return false;
  }
  return true;
}

// Unique among the segments this process creates (several mock worlds share a process).
std::atomic<int> nextSegmentId{0};

std::string segmentName(uint64_t jobHash, int creatorPid, int id) {
  // The job's prefix: the launcher removes a crashed job's segments (job_files.h).
  return transport::jobShmPrefix(jobHash) + std::to_string(creatorPid) + "-c" + std::to_string(id);
}

// Rank 0 creates the segment, the others map it once they know its name; every rank says
// whether it could, and the area is used only if all could. Rank 0 unlinks the name as
// soon as everyone has mapped it (or given up): nothing stays behind in /dev/shm, and a
// crash before that leaves a name the launcher removes with the job's files.
bool setUp(Communicator& comm, ShmArea& area) {
  const uint64_t jobHash = comm.world().engine().jobHash();
  const std::size_t bytes = ShmArea::bytesFor(comm.size());
  transport::SharedSegment segment;
  std::vector<int> mine{0, 0, 0};  // created, creator pid, segment id (rank 0's count)
  if (comm.rank() == 0) {
    const int id = nextSegmentId.fetch_add(1, std::memory_order_relaxed);
    try {
      segment = transport::SharedSegment::create(segmentName(jobHash, getpid(), id), bytes);
      mine = {1, getpid(), id};
    } catch (const transport::TransportError& error) {
      log::get("mpi")->debug("shared-memory collectives off for a communicator: {}", error.what());
    }
  }
  const std::vector<int> names = allgatherInts(comm, mine);
  if (names[0] == 0) return false;  // every rank sees rank 0's entry
  // 2: mapped, and registered for sleepers' fences; 1: mapped only; 0: not mapped.
  int mapped = 1;
  if (comm.rank() != 0) {
    try {
      segment = transport::SharedSegment::open(segmentName(jobHash, names[1], names[2]));
      mapped = segment.size() == bytes;
    } catch (const transport::TransportError& error) {
      log::get("mpi")->debug("shared-memory collectives off for a communicator: {}", error.what());
      mapped = 0;
    }
  }
  if (mapped == 1 && sleeperFencesReady()) mapped = 2;
  const std::vector<int> all = allgatherInts(comm, {mapped});
  segment.unlinkName();  // the creator only; everyone has mapped it or given up
  const int agreed = *std::min_element(all.begin(), all.end());
  if (agreed == 0) return false;
  area.attach(std::move(segment), agreed == 2);
  return true;
}

}  // namespace

bool shmCollectivesEnabled() {
  // ZMPI_COLL_DIRECT=0 asks for the plans' messages: the shared-memory path is off too.
  static const bool enabled = [] {
    if (!experiment(kCollShmExperiment) || !experiment(kCollDirectExperiment)) return false;
    return setting(kTransportSetting) == "shm";  // tcp or ipc: no shared memory
  }();
  return enabled;
}

bool shmLargeEnabled() {
  static const bool enabled = experiment(kCollShmLargeExperiment);
  return enabled;
}

ShmArea* shmAreaOf(Communicator& comm) {
  ShmArea* area = comm.collShm.get();
  if (area != nullptr && area->attached()) return area;
  if (comm.collShmTried) return nullptr;
  if (area == nullptr) {
    if (!qualifies(comm)) {
      comm.collShmTried = true;
      return nullptr;
    }
    comm.collShm = std::make_unique<ShmArea>(comm.world().engine(), comm.rank(), comm.size());
    area = comm.collShm.get();
  }
  // The first few qualifying calls take the message paths: a communicator used for a
  // collective or two (libraries dup MPI_COMM_WORLD often) never pays for a segment.
  if (area->countCallBeforeSetUp() <= callsBeforeSetUp()) return nullptr;
  if (!setUp(comm, *area)) {
    comm.collShm.reset();
    comm.collShmTried = true;
    return nullptr;
  }
  return area;
}

int callsBeforeSetUp() {
  static const int calls = static_cast<int>(setting(kCollShmAfterSetting));
  return calls;
}

ShmArea::ShmArea(Engine& engine, int rank, int size)
    : engine_(engine), rank_(rank), size_(size), stagingBytes_(stagingBytes(size)) {
  if (size > 1) pairPiece_ = pairPieceFor(size);
}

void ShmArea::attach(transport::SharedSegment segment, bool sleeperFences) {
  segment_ = std::move(segment);
  sleeperFences_ = sleeperFences;
}

std::size_t ShmArea::stagingOffset(int size) {
  constexpr std::size_t kPage = 4096;
  const auto ranks = static_cast<std::size_t>(size);
  return (ranks * (sizeof(Line) + sizeof(Pairs) + kRankBytes) + kPage - 1) / kPage * kPage;
}

std::size_t ShmArea::bytesFor(int size) {
  return stagingOffset(size) + static_cast<std::size_t>(size) * stagingBytes(size);
}

std::size_t ShmArea::pairBytes(int size) {
  // Whole cache lines, 4 KiB to 4 MiB.
  static const std::size_t wanted = static_cast<std::size_t>(setting(kCollShmPairSetting) / 64 * 64);
  const auto readers = static_cast<std::size_t>(std::max(size - 1, 1));
  const std::size_t ringShare = kChunks * chunkBytes() / readers / 64 * 64;
  return std::max(ringShare, std::min(wanted, kPairSpaceBytes / readers / 64 * 64));
}

std::size_t ShmArea::stagingBytes(int size) {
  const auto readers = static_cast<std::size_t>(std::max(size - 1, 1));
  const std::size_t pages = (readers * pairBytes(size) + 4095) / 4096 * 4096;
  return std::max(kChunks * chunkBytes(), pages);
}

std::size_t ShmArea::chunkBytes() {
  // Whole pages, 4 KiB to 4 MiB.
  static const std::size_t bytes = static_cast<std::size_t>(setting(kCollShmChunkSetting) / 4096 * 4096);
  return bytes;
}

char* ShmArea::staging(int rank) const {
  return base() + stagingOffset(size_) + static_cast<std::size_t>(rank) * stagingBytes_;
}

char* ShmArea::chunk(int rank, uint64_t round) const { return staging(rank) + (round % kChunks) * chunkBytes_; }

void ShmArea::waitFlag(int rank, std::atomic<uint64_t>& flag, uint64_t value) {
  if (flag.load(std::memory_order_acquire) >= value) return;
  waitShm(
      engine_, line(rank)->bell, [&] { return flag.load(std::memory_order_acquire) >= value; }, sleeperFences_);
}

uint64_t ShmArea::beginPairs() {
  const bool after = pairsLast_;
  const uint64_t last = beginRounds(kChunks) + kChunks - 1;
  pairsLast_ = true;
  // Every rank has read every round before: the pair regions cover all chunks.
  if (!after) waitChunkWritable(last);
  return last;
}

char* ShmArea::pairSlot(int writer, int reader, uint64_t piece) const {
  const auto part = static_cast<std::size_t>((reader - writer - 1 + size_) % size_);
  const std::size_t slot = part * kPairSlots + piece % kPairSlots;
  return staging(writer) + slot * pairPiece_;
}

void ShmArea::waitChunkWritable(uint64_t round) {
  if (round <= kChunks) return;
  const uint64_t last = round - kChunks;
  if (knownRead_ >= last) return;
  // As waitWritable: one look at everyone, then wait for whoever is behind.
  uint64_t least = UINT64_MAX;
  for (int q = 0; q < size_; ++q) {
    if (q == rank_) continue;
    waitFlag(q, line(q)->read, last);
    least = std::min(least, line(q)->read.load(std::memory_order_acquire));
  }
  knownRead_ = std::max(knownRead_, least);
}

ShmArea::Buffer ShmArea::rootedBuffer(std::size_t bytes) {
  if (bytes <= kSmallBytes) {
    const Buffer buffer{2 + smallCursor_, true};
    smallCursor_ = (smallCursor_ + 1) % kSmallUnits;
    return buffer;
  }
  const Buffer buffer{2 + kSmallUnits + largeCursor_, false};
  largeCursor_ = (largeCursor_ + 1) % kLargeSlots;
  return buffer;
}

char* ShmArea::slot(int rank, Buffer b) const { return buffer(rank, b) + (b.stamped ? kStampBytes : 0); }

// A rank's buffers: the two slots, the units, the large slots, the two stamped lines.
char* ShmArea::buffer(int rank, Buffer buffer) const {
  char* mine = base() + static_cast<std::size_t>(size_) * (sizeof(Line) + sizeof(Pairs)) +
               static_cast<std::size_t>(rank) * kRankBytes;
  const auto index = static_cast<std::size_t>(buffer.index);
  if (index < 2) return mine + index * kSlotBytes;
  if (index >= kSyncLineIndex) {
    return mine + (2 + kLargeSlots) * kSlotBytes + kSmallUnits * kUnitBytes + (index - kSyncLineIndex) * kSyncLineBytes;
  }
  if (index < 2 + kSmallUnits) return mine + 2 * kSlotBytes + (index - 2) * kUnitBytes;
  return mine + 2 * kSlotBytes + kSmallUnits * kUnitBytes + (index - 2 - kSmallUnits) * kSlotBytes;
}

uint64_t ShmArea::finished(int q) const {
  const uint64_t ready = line(q)->ready.load(std::memory_order_acquire);
  const uint64_t done = line(q)->done.load(std::memory_order_acquire);
  return std::max(done, ready == 0 ? 0 : ready - 1);
}

void ShmArea::waitReady(int rank, uint64_t seq) {
  std::atomic<uint64_t>& flag = line(rank)->ready;
  if (flag.load(std::memory_order_acquire) >= seq) return;
  waitShm(
      engine_, line(rank)->bell, [&] { return flag.load(std::memory_order_acquire) >= seq; }, sleeperFences_);
}

void ShmArea::waitStamp(int rank, Buffer buffer, uint64_t seq) {
  std::atomic<uint64_t>& word = stamp(rank, buffer);
  if (word.load(std::memory_order_acquire) >= seq) return;
  waitShm(
      engine_, line(rank)->bell, [&] { return word.load(std::memory_order_acquire) >= seq; }, sleeperFences_);
}

void ShmArea::waitAllStamps(Buffer buffer, uint64_t seq) {
  for (int q = 0; q < size_; ++q) {
    if (q != rank_) waitStamp(q, buffer, seq);
  }
  // Rank q wrote in call seq, so it had finished every call before.
  knownFinished_ = std::max(knownFinished_, seq - 1);
}

void ShmArea::waitAllReady(uint64_t seq) {
  for (int q = 0; q < size_; ++q) {
    if (q != rank_) waitReady(q, seq);
  }
  knownFinished_ = std::max(knownFinished_, seq - 1);
}

void ShmArea::waitWritable(Buffer buffer, uint64_t seq) {
  const uint64_t last = lastWrite_[buffer.index];
  lastWrite_[buffer.index] = seq;
  if (knownFinished_ >= last) return;
  // Look at everyone's progress once (so that a root running ahead looks only every few
  // calls), then wait for whoever is behind.
  uint64_t least = UINT64_MAX;
  for (int q = 0; q < size_; ++q) {
    if (q == rank_) continue;
    if (finished(q) < last)
      waitShm(
          engine_, line(q)->bell, [&] { return finished(q) >= last; }, sleeperFences_);
    least = std::min(least, finished(q));
  }
  knownFinished_ = std::max(knownFinished_, least);
}

}  // namespace zmpi::mpi::coll
