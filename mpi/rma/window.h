#pragma once
// An MPI window: memory each rank of a communicator exposes to the others' one-sided
// operations, and the epochs that order them.
//
// Where the work happens:
//  - The origin packs its data with the origin datatype and flattens the target datatype
//    into a target layout (target_layout.h), checks the range against the target's window
//    size (known from creation), and sends one active message (protocol.h).
//  - The target applies it where the engine delivers it (its progress thread, or a thread
//    of its own draining the same-host rings), one message at a time (target_ops.cc), so
//    accumulates on the same location are atomic with respect to each other and the
//    target never has to call MPI.
//  - Same-host ranks of a shared window read and write each other's memory directly
//    (Put/Get); accumulates still go to the target as messages, for atomicity.
//  - Completion: each target channel is FIFO, so a Flush/Unlock reply means every earlier
//    operation was applied there; fence = flush all + barrier.
//
// Threads: epoch calls come from the program's threads; replies, lock grants, posts and
// completes arrive where the engine delivers and change state under `mutex_`. Every blocking
// wait also watches the engine for an abort, so a dead peer ends it with an error.
#include <mpi.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/core/errhandler.h"
#include "mpi/core/handle.h"
#include "mpi/datatype/datatype.h"
#include "mpi/rma/lock_manager.h"
#include "mpi/rma/protocol.h"
#include "transport/wire.h"

namespace zmpi::mpi {
class Datatype;
class Op;
class World;
struct Envelope;
}  // namespace zmpi::mpi

namespace zmpi::mpi::rma {

class AttachTables;
class HostLocks;
class SharedSegment;
class TargetLayout;

enum class Flavor : int {
  Create = MPI_WIN_FLAVOR_CREATE,
  Allocate = MPI_WIN_FLAVOR_ALLOCATE,
  Dynamic = MPI_WIN_FLAVOR_DYNAMIC,
  Shared = MPI_WIN_FLAVOR_SHARED,
};

// What every rank learns about each peer's window at creation (allgathered).
struct PeerWindow {
  uint64_t size = 0;  // bytes; 0 for dynamic windows
  int32_t dispUnit = 1;
  uint32_t id = 0;  // the window's id in the peer's process (envelope context)
  int32_t pid = 0;  // names the shared segment a host's first rank creates
  int32_t reserved = 0;
  uint64_t base = 0;   // the memory's address in the peer's process (MPI_Win_create windows)
  uint64_t probe = 0;  // a byte in the peer's process, to try cross-memory attach on
};

// A buffer and datatype as an MPI call passes them.
struct Buffer {
  const void* data;
  int count;
  const Datatype* type;
};

class Window {
 public:
  Window(World& world, std::unique_ptr<Communicator> comm, Flavor flavor);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  MPI_Win handle() { return &handle_; }
  uint32_t id() const { return id_; }
  World& world() { return world_; }
  Communicator& comm() { return *comm_; }
  int rank() const { return comm_->rank(); }
  int size() const { return comm_->size(); }
  Flavor flavor() const { return flavor_; }
  void* base() const { return base_; }
  MPI_Aint sizeBytes() const { return size_; }
  int dispUnit() const { return dispUnit_; }
  const PeerWindow& peer(int rank) const { return peers_.at(static_cast<std::size_t>(rank)); }

  std::string name;
  ErrhandlerRef errhandler;

  // --- set up by the constructors in window_create.cc ---
  void setLocalMemory(void* base, MPI_Aint size, int dispUnit, std::unique_ptr<char[]> owned);
  void setPeers(std::vector<PeerWindow> peers);
  // Same-host ranks of a shared window: their memory as mapped in this process.
  void setShared(std::unique_ptr<SharedSegment> segment, std::vector<char*> direct);
  // A segment holding only the host's lock lines (windows whose memory is the program's).
  void keepSegment(std::unique_ptr<SharedSegment> segment);
  // Every rank is on this host: passive-target locks through the lock lines at `lines`
  // (host_locks.h) instead of lock messages; with `directAccumulate` (every rank's memory
  // mapped here) accumulates and compare-and-swaps are applied by the origin itself, under
  // the target's accumulate mutex.
  void useHostLocks(void* lines, bool directAccumulate);
  // Windows of the program's memory whose ranks share a host (with useHostLocks): this
  // process reads and writes each peer's window itself, in process `pids[rank]` (cross-memory
  // attach, transport/process_memory.h), and applies accumulates there under the target's
  // accumulate mutex, instead of sending the operations (on dynamic windows, where the
  // target's attach table lists the memory).
  void useProcessMemory(std::vector<int> pids);
  // Dynamic windows on one host: the tables of attached regions at `lines`
  // (attach_table.h), where this rank publishes its own and reads its peers'.
  void useAttachTables(void* lines);
  void publishAttributes();  // MPI_WIN_BASE, _SIZE, _DISP_UNIT, _CREATE_FLAVOR, _MODEL

  // MPI_Win_shared_query: `rank`'s memory in this process (MPI_PROC_NULL: the lowest rank
  // with memory). MPI_ERR_RMA_SHARED for ranks on another host or non-shared windows.
  void* sharedQuery(int rank, MPI_Aint* size, int* dispUnit) const;

  // Dynamic windows (displacements are addresses, as from MPI_Get_address).
  void attach(void* base, MPI_Aint size);
  void detach(const void* base);

  // --- origin operations (origin_ops.cc); `target` is a rank or MPI_PROC_NULL ---
  void put(Buffer origin, int target, MPI_Aint disp, int targetCount, const Datatype& targetType);
  void get(void* origin, int originCount, const Datatype& originType, int target, MPI_Aint disp, int targetCount,
           const Datatype& targetType);
  void accumulate(Buffer origin, int target, MPI_Aint disp, int targetCount, const Datatype& targetType, const Op& op);
  // MPI_Get_accumulate (and MPI_Fetch_and_op): `result` receives the target's data as it
  // was before the op; with MPI_NO_OP, `origin` is not read.
  void getAccumulate(Buffer origin, void* result, int resultCount, const Datatype& resultType, int target,
                     MPI_Aint disp, int targetCount, const Datatype& targetType, const Op& op);
  void compareAndSwap(const void* origin, const void* compare, void* result, const Datatype& type, int target,
                      MPI_Aint disp);

  // --- synchronization (sync_active.cc, sync_passive.cc) ---
  void fence(int assert);
  void lock(int lockType, int target, int assert);
  void unlock(int target);
  void lockAll(int assert);
  void unlockAll();
  void flush(int target);
  void flushAll();
  // Local completion: origin data is packed at issue, so this waits for gets only.
  void flushLocal(int target);
  void flushLocalAll();
  // MPI_Win_sync: a full memory barrier, ordered after every target-side operation applied
  // so far, whichever thread applied it.
  void sync();
  // Request-based operations: waits until the replies from `target` have landed, with no
  // epoch check (MPI_Rget and friends complete this way).
  void completeLocally(int target);
  void post(const Group& group, int assert);
  void start(const Group& group, int assert);
  void complete();
  void wait();
  bool test();

  // Collective: ends every access to this window (MPI_Win_free). The caller then drops it.
  void free();

  // Progress thread: one message of kinds 16..31 for this window (registry.cc).
  void onMessage(transport::WireMessage&& message);

 private:
  struct PendingReply {
    int target;
    void* buffer;  // where the reply's data is unpacked (null: no data)
    std::size_t count;
    const Datatype* type;  // retained until the reply arrived
  };
  enum class LockState : uint8_t { None, Shared, Exclusive, NoCheckShared, NoCheckExclusive };

  // origin side (origin_ops.cc)
  void requireAccess(int target, const char* what);
  // The target's byte offset (dynamic windows: address) of `disp`, range-checked.
  int64_t targetOffset(int target, MPI_Aint disp, const TargetLayout& layout, const char* what);
  // The target memory at `offset` when it is mapped in this process (same-host shared
  // windows, and our own window), else null.
  char* directAddress(int target, int64_t offset) const;
  uint64_t expectReply(int target, void* buffer, std::size_t count, const Datatype* type);
  // An accumulate-kind operation applied here to `target`'s mapped memory at `address`
  // (useHostLocks' directAccumulate): what applyData does at a target, under the target's
  // accumulate mutex; the old contents go to `result` (unpacked with `resultType`).
  void applyDirect(RmaKind kind, int target, int64_t offset, const TargetLayout& layout, uint8_t op, uint8_t primitive,
                   std::span<const Buffer> parts, void* result, const Datatype* resultType);
  // useProcessMemory: the pid to read and write `target`'s window in, else 0.
  int processOf(int target) const { return processPids_.empty() ? 0 : processPids_[static_cast<std::size_t>(target)]; }
  // Whether this process applies an accumulate-kind operation on `layout` at `offset` of
  // `target` itself (applyDirect), in mapped memory or in the target's process.
  bool appliesHere(int target, int64_t offset, const TargetLayout& layout, const char* what);
  // Whether `layout` at `offset` is read and written in `target`'s process (useProcessMemory):
  // on a dynamic window only where its attach table lists the range; a range it lists
  // outside every attached region fails with MPI_ERR_RMA_RANGE.
  bool inProcessMemory(int target, int64_t offset, const TargetLayout& layout, const char* what);
  // The packed bytes of `layout` at `offset` in `target`'s window, read or written in its process.
  void readProcess(int target, int64_t offset, const TargetLayout& layout, char* packed);
  void writeProcess(int target, int64_t offset, const TargetLayout& layout, const char* packed);
  // Header, target layout, then each part packed with its datatype.
  void sendData(RmaKind kind, int target, int64_t offset, uint64_t requestId, const TargetLayout& layout, uint8_t op,
                uint8_t primitive, std::span<const Buffer> parts);
  // To `target`'s window (its id from creation); replies go to the id the request named.
  void send(RmaKind kind, int target, uint64_t requestId, int tag, uint64_t offset, zmq::message_t&& payload);
  void sendTo(RmaKind kind, int target, uint32_t windowId, uint64_t requestId, int tag, uint64_t offset,
              zmq::message_t&& payload);
  void onReply(const Envelope& envelope, zmq::message_t& payload);

  // completion (sync_passive.cc)
  void flushTarget(int target);  // sends Flush if anything went there since the last one
  // Flushes `targets`, then gives their host locks (held as `state`) up.
  void releaseHostLocks(const std::vector<int>& targets, LockState state);
  void giveUpHostLock(int target, LockState state);  // the lock word alone
  void waitReplies(const std::vector<int>& targets);
  // Blocks until ready() (checked under mutex_) holds; throws if the world aborts.
  void waitFor(std::unique_lock<std::mutex>& lock, const std::function<bool()>& ready);
  void raiseDeferredError();
  void requirePassiveEpoch(int target, const char* what);
  void requirePassiveEpochLocked(int target, const char* what);  // under mutex_
  std::vector<int> lockedTargets(const char* what);
  std::vector<int> ranksOf(const Group& group, const char* what) const;

  // target side (target_ops.cc)
  void applyData(RmaKind kind, const Envelope& envelope, const zmq::message_t& payload);
  char* targetAddress(int64_t offset, const TargetLayout& span);
  void onLockMessage(RmaKind kind, const Envelope& envelope);
  void reply(const Envelope& request, int error, zmq::message_t&& payload);
  void accumulateAt(const OpHeader& header, std::span<const TypeBlock> blocks, std::size_t bytes, const char* data,
                    char* address);
  void noteOriginError(int origin, int code, const std::string& message);

  ompi_win_t handle_;
  World& world_;
  std::unique_ptr<Communicator> comm_;
  uint32_t id_;
  Flavor flavor_;
  void* base_ = nullptr;
  MPI_Aint size_ = 0;
  int dispUnit_ = 1;
  int flavorValue_;
  std::unique_ptr<char[]> ownedMemory_;
  std::unique_ptr<SharedSegment> segment_;
  std::vector<char*> direct_;  // per rank: memory mapped here, or null
  std::unique_ptr<HostLocks> hostLocks_;
  std::unique_ptr<AttachTables> attachTables_;
  bool directAccumulate_ = false;
  std::vector<int> processPids_;  // per rank (useProcessMemory), or empty
  std::vector<PeerWindow> peers_;

  std::mutex mutex_;
  std::condition_variable changed_;
  // origin side
  uint64_t nextRequestId_ = 1;
  std::unordered_map<uint64_t, PendingReply> pending_;
  std::vector<int> pendingPerTarget_;
  std::vector<uint8_t> dirty_;  // something was sent to the target since its last flush
  int deferredError_ = MPI_SUCCESS;
  std::string deferredMessage_;
  std::vector<int> grants_;  // LockGranted messages not yet consumed by lock()
  std::vector<int> posts_;   // Post messages not yet consumed by start()
  int completes_ = 0;        // Complete messages not yet consumed by wait()
  // epochs (the program's threads)
  bool fenceEpoch_ = false;
  bool lockAll_ = false;
  // fenceEpoch_ || lockAll_, written with them (noteOpenToAll): every target is open then,
  // and an operation's epoch check needs no mutex.
  std::atomic<bool> openToAll_{false};
  void noteOpenToAll() { openToAll_.store(fenceEpoch_ || lockAll_, std::memory_order_release); }
  bool lockAllNoCheck_ = false;
  std::vector<LockState> locks_;
  bool accessEpoch_ = false;
  std::vector<int> accessGroup_;
  bool exposureEpoch_ = false;
  std::vector<int> exposureGroup_;
  std::vector<uint8_t> inAccessGroup_;
  // target side: under targetMutex_ (delivery may happen on more than one thread), except
  // `attached_`, which the program's threads change under mutex_
  std::mutex targetMutex_;
  LockManager lockManager_;
  std::vector<uint32_t> lockReplyIds_;                     // per origin: its window id, from its last lock request
  std::vector<std::pair<int, std::string>> originErrors_;  // first failure per origin since its last flush
  std::vector<std::pair<uintptr_t, std::size_t>> attached_;
};

// Throws MpiError(MPI_ERR_WIN) for MPI_WIN_NULL and invalid handles.
Window* windowOf(MPI_Win handle);

}  // namespace zmpi::mpi::rma
