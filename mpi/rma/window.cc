// A window's identity, memory and lifetime; the operations and epochs live in the other
// files of this folder.
#include "mpi/rma/window.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "mpi/core/error.h"
#include "mpi/core/keyval.h"
#include "mpi/core/world.h"
#include "mpi/rma/attach_table.h"
#include "mpi/rma/exchange.h"
#include "mpi/rma/host_locks.h"
#include "mpi/rma/registry.h"
#include "mpi/rma/shared_segment.h"

namespace zmpi::mpi::rma {
namespace {

// How often a blocked epoch call looks at the engine for an abort. Completion itself wakes
// the waiter at once (condition variable); this only bounds how long a dead job lingers.
constexpr std::chrono::milliseconds kAbortCheckPeriod{100};

}  // namespace

Window::Window(World& world, std::unique_ptr<Communicator> comm, Flavor flavor)
    : errhandler(Errhandler::fatal()),
      world_(world),
      comm_(std::move(comm)),
      id_(nextWindowId()),
      flavor_(flavor),
      flavorValue_(static_cast<int>(flavor)) {
  bindHandle(&handle_, HandleKind::Win, this);
  const auto n = static_cast<std::size_t>(comm_->size());
  direct_.assign(n, nullptr);
  peers_.assign(n, PeerWindow{});
  pendingPerTarget_.assign(n, 0);
  dirty_.assign(n, 0);
  grants_.assign(n, 0);
  posts_.assign(n, 0);
  locks_.assign(n, LockState::None);
  inAccessGroup_.assign(n, 0);
  originErrors_.assign(n, {MPI_SUCCESS, std::string()});
  lockReplyIds_.assign(n, 0);
}

Window::~Window() { retireHandle(handle_.header); }

void Window::setLocalMemory(void* base, MPI_Aint size, int dispUnit, std::unique_ptr<char[]> owned) {
  base_ = base;
  size_ = size;
  dispUnit_ = dispUnit;
  ownedMemory_ = std::move(owned);
  // Operations this process issues on itself skip the network.
  if (flavor_ != Flavor::Dynamic) direct_[static_cast<std::size_t>(rank())] = static_cast<char*>(base);
}

void Window::setPeers(std::vector<PeerWindow> peers) { peers_ = std::move(peers); }

void Window::setShared(std::unique_ptr<SharedSegment> segment, std::vector<char*> direct) {
  segment_ = std::move(segment);
  direct_ = std::move(direct);
}

void Window::keepSegment(std::unique_ptr<SharedSegment> segment) { segment_ = std::move(segment); }

void Window::useHostLocks(void* lines, bool directAccumulate) {
  hostLocks_ = std::make_unique<HostLocks>(lines, world_.engine());
  directAccumulate_ = directAccumulate;
}

void Window::useProcessMemory(std::vector<int> pids) {
  processPids_ = std::move(pids);
  directAccumulate_ = true;
}

void Window::useAttachTables(void* lines) {
  attachTables_ = std::make_unique<AttachTables>(lines);
  std::lock_guard lock(mutex_);
  attachTables_->publish(rank(), attached_);
}

void Window::publishAttributes() {
  MPI_Win win = handle();
  setWinAttribute(win, MPI_WIN_BASE, base_, true);
  setWinAttribute(win, MPI_WIN_SIZE, &size_, true);
  setWinAttribute(win, MPI_WIN_DISP_UNIT, &dispUnit_, true);
  setWinAttribute(win, MPI_WIN_CREATE_FLAVOR, &flavorValue_, true);
  setWinAttribute(win, MPI_WIN_MODEL, const_cast<int*>(internedInt(MPI_WIN_UNIFIED)), true);
}

void* Window::sharedQuery(int rank, MPI_Aint* size, int* dispUnit) const {
  if (flavor_ != Flavor::Shared) fail(MPI_ERR_RMA_FLAVOR, "the window was not created by MPI_Win_allocate_shared");
  if (rank == MPI_PROC_NULL) {
    // The first rank with memory, as the standard says; none: a zero-size answer.
    for (int r = 0; r < comm_->size(); ++r) {
      if (peers_[static_cast<std::size_t>(r)].size > 0 && direct_[static_cast<std::size_t>(r)] != nullptr) {
        return sharedQuery(r, size, dispUnit);
      }
    }
    *size = 0;
    *dispUnit = dispUnit_;
    return nullptr;
  }
  if (rank < 0 || rank >= comm_->size()) {
    fail(MPI_ERR_RANK,
         "rank " + std::to_string(rank) + " is not in the window (size " + std::to_string(comm_->size()) + ")");
  }
  char* memory = direct_[static_cast<std::size_t>(rank)];
  if (memory == nullptr) {
    fail(MPI_ERR_RMA_SHARED,
         "rank " + std::to_string(rank) + " is on another host: its window memory cannot be mapped");
  }
  const PeerWindow& p = peers_[static_cast<std::size_t>(rank)];
  *size = static_cast<MPI_Aint>(p.size);
  *dispUnit = p.dispUnit;
  return memory;
}

void Window::attach(void* base, MPI_Aint size) {
  if (flavor_ != Flavor::Dynamic) fail(MPI_ERR_RMA_FLAVOR, "MPI_Win_attach needs a window from MPI_Win_create_dynamic");
  if (size < 0) fail(MPI_ERR_SIZE, "size " + std::to_string(size) + " is negative");
  if (size > 0 && base == nullptr) fail(MPI_ERR_ARG, "base is a null pointer");
  std::lock_guard lock(mutex_);
  attached_.emplace_back(reinterpret_cast<uintptr_t>(base), static_cast<std::size_t>(size));
  if (attachTables_) attachTables_->publish(rank(), attached_);
}

void Window::detach(const void* base) {
  if (flavor_ != Flavor::Dynamic) fail(MPI_ERR_RMA_FLAVOR, "MPI_Win_detach needs a window from MPI_Win_create_dynamic");
  std::lock_guard lock(mutex_);
  auto it = std::find_if(attached_.begin(), attached_.end(),
                         [&](const auto& region) { return region.first == reinterpret_cast<uintptr_t>(base); });
  if (it == attached_.end()) fail(MPI_ERR_BASE, "no memory is attached to the window at that address");
  attached_.erase(it);
  if (attachTables_) attachTables_->publish(rank(), attached_);
}

void Window::waitFor(std::unique_lock<std::mutex>& lock, const std::function<bool()>& ready) {
  if (ready()) return;
  // What we wait for arrives as messages the progress thread must be woken for.
  world_.engine().prepareToBlock();
  while (!changed_.wait_for(lock, kAbortCheckPeriod, ready)) {
    lock.unlock();
    world_.engine().waitUntil([] { return true; });  // throws MpiError if the world aborted
    lock.lock();
  }
}

void Window::free() {
  {
    std::lock_guard lock(mutex_);
    const bool locked = std::any_of(locks_.begin(), locks_.end(), [](LockState s) { return s != LockState::None; });
    if (locked || lockAll_) fail(MPI_ERR_RMA_SYNC, "the window is still locked (call MPI_Win_unlock first)");
    if (accessEpoch_) fail(MPI_ERR_RMA_SYNC, "an access epoch (MPI_Win_start) is still open");
    if (exposureEpoch_) fail(MPI_ERR_RMA_SYNC, "an exposure epoch (MPI_Win_post) is still open");
  }
  std::vector<int> everyone(static_cast<std::size_t>(size()));
  for (int r = 0; r < size(); ++r) everyone[static_cast<std::size_t>(r)] = r;
  for (int r : everyone) flushTarget(r);
  waitReplies(everyone);
  // Nobody may touch our memory after we return: wait until every rank stopped accessing.
  barrier(*comm_);
  if (segment_) segment_->unlink();
  deleteAllWinAttributes(handle());
  raiseDeferredError();
}

Window* windowOf(MPI_Win handle) {
  if (handle == MPI_WIN_NULL) fail(MPI_ERR_WIN, "window is MPI_WIN_NULL");
  if (!isHandleOf(handle, HandleKind::Win) || implOf<Window>(handle) == nullptr) {
    fail(MPI_ERR_WIN, "invalid window handle");
  }
  return implOf<Window>(handle);
}

}  // namespace zmpi::mpi::rma
