#include "mpi/rma/window_create.h"

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "mpi/comm/constructors.h"
#include "mpi/core/environment.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"
#include "mpi/rma/attach_table.h"
#include "mpi/rma/exchange.h"
#include "mpi/rma/host_locks.h"
#include "mpi/rma/registry.h"
#include "mpi/rma/shared_segment.h"
#include "transport/process_memory.h"

namespace zmpi::mpi::rma {
namespace {

const transport::Experiment kRmaSharedExperiment{
    "rma-shared", true, "ZMPI_RMA_SHARED",
    "windows whose ranks share a host keep their locks, and MPI_Win_allocate its memory, in shared memory"};
const transport::Experiment kRmaCmaExperiment{
    "rma-cma", true, "ZMPI_RMA_CMA",
    "operations on MPI_Win_create and dynamic windows on one host read and write the target's process"};

void checkShape(MPI_Aint size, int dispUnit) {
  if (size < 0) fail(MPI_ERR_SIZE, "window size " + std::to_string(size) + " is negative");
  if (dispUnit <= 0) fail(MPI_ERR_DISP, "displacement unit " + std::to_string(dispUnit) + " is not positive");
}

bool everyRankOnThisHost(Window& window) {
  World& world = window.world();
  Communicator& comm = window.comm();
  for (int r = 0; r < comm.size(); ++r) {
    if (world.hostOf(comm.worldRankOf(r)) != world.host()) return false;
  }
  return true;
}

// Windows whose ranks share a host keep their locks (and, but for MPI_Win_create's and
// dynamic windows, their memory) in a segment; ZMPI_RMA_SHARED=0 sends every lock and
// every operation on memory not mapped here as messages instead (comparisons, tests).
bool hostSegmentsAllowed() {
  static const bool allowed = experiment(kRmaSharedExperiment);
  return allowed;
}

// What a window keeps in its host's segment.
struct SegmentUse {
  bool data;                  // the ranks' window memory (MPI_Win_allocate_shared, MPI_Win_allocate)
  bool locks;                 // a HostLockLine per rank, before the memory
  bool required;              // failing to set it up fails the call; else every rank does without
  bool attachTables = false;  // an AttachTableLine per rank, after the locks (dynamic windows)
};

// What peers read to learn whether cross-memory attach works between them.
constexpr char kProbeByte = 1;

// Memory parts of MPI_Win_allocate windows start at this alignment (any type's);
// MPI_Win_allocate_shared's are contiguous, as the standard's default asks.
constexpr std::size_t kAllocateAlignment = 64;

std::size_t alignUp(std::size_t bytes, std::size_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

// The host's lowest rank creates one segment for the host's ranks; the others map it
// once it exists. Every rank has mapped it before any returns, so no peer's direct load
// or store can reach memory its owner has not mapped yet. Returns whether the segment is
// in place (false only where it is not `required`, on every rank alike).
bool setUpSharedMemory(Window& window, MPI_Aint size, int dispUnit, SegmentUse use) {
  World& world = window.world();
  Communicator& comm = window.comm();
  std::vector<int> hostRanks;
  for (int r = 0; r < comm.size(); ++r) {
    if (world.hostOf(comm.worldRankOf(r)) == world.host()) hostRanks.push_back(r);
  }
  const std::size_t lockBytes = use.locks ? HostLocks::bytesFor(comm.size()) : 0;
  const std::size_t tableBytes = use.attachTables ? AttachTables::bytesFor(comm.size()) : 0;
  const std::size_t alignment = window.flavor() == Flavor::Allocate ? kAllocateAlignment : 1;
  std::vector<std::size_t> offsets(static_cast<std::size_t>(comm.size()), 0);
  std::size_t total = lockBytes + tableBytes;
  for (int r : hostRanks) {
    total = alignUp(total, alignment);
    offsets[static_cast<std::size_t>(r)] = total;
    if (use.data) total += window.peer(r).size;
  }
  const int leader = hostRanks.front();
  const std::string name = SharedSegment::nameFor(world.jobId(), window.peer(leader).pid, window.peer(leader).id);
  std::unique_ptr<SharedSegment> segment;
  int status = MPI_SUCCESS;
  std::string failure;
  auto attempt = [&](auto&& step) {
    try {
      step();
    } catch (const MpiError& error) {
      status = error.code();
      failure = error.what();
    }
  };
  // Any rank's failure is every rank's: with the first failing rank's code where the
  // segment is required, else each drops what it mapped.
  auto agreed = [&](const char* what) {
    for (int code : allgather(comm, status)) {
      if (code == MPI_SUCCESS) continue;
      if (use.required) fail(code, failure.empty() ? what : failure);
      segment.reset();
      return false;
    }
    return true;
  };
  if (comm.rank() == leader) attempt([&] { segment = SharedSegment::create(name, total); });
  if (!agreed("a host's shared-memory segment could not be created")) return false;
  if (comm.rank() != leader) attempt([&] { segment = SharedSegment::open(name, total); });
  if (!agreed("a rank could not map its host's shared-memory segment")) return false;
  std::vector<char*> direct(static_cast<std::size_t>(comm.size()), nullptr);
  if (use.data) {
    for (int r : hostRanks)
      direct[static_cast<std::size_t>(r)] = segment->data() + offsets[static_cast<std::size_t>(r)];
  }
  char* mine = direct[static_cast<std::size_t>(comm.rank())];
  char* lines = use.locks ? segment->data() : nullptr;
  char* tables = use.attachTables ? segment->data() + lockBytes : nullptr;
  if (use.data) {
    window.setShared(std::move(segment), std::move(direct));
    window.setLocalMemory(mine, size, dispUnit, nullptr);
  } else {
    window.keepSegment(std::move(segment));
  }
  if (lines != nullptr) window.useHostLocks(lines, use.data);
  if (tables != nullptr) window.useAttachTables(tables);
  return true;
}

// Whether this process may read and write the windows of its host's peers itself
// (useProcessMemory): each rank reads a byte of every peer's process with cross-memory
// attach (PeerWindow::probe), and all must succeed -- the kernel refuses it across users,
// under Yama's ptrace_scope or a container's seccomp profile, and a pid means the same
// process only within one pid namespace (Fabric::hostPeerPid). ZMPI_RMA_CMA=0 keeps the
// operations of such windows as messages. A dynamic window reaches its own rank's memory
// the same way (it is not mapped at a window base).
void setUpProcessAccess(Window& window) {
  static const bool allowed = experiment(kRmaCmaExperiment);
  World& world = window.world();
  Communicator& comm = window.comm();
  const bool dynamic = window.flavor() == Flavor::Dynamic;
  std::vector<int> pids(static_cast<std::size_t>(comm.size()), 0);
  int readable = allowed ? 1 : 0;
  for (int r = 0; r < comm.size() && readable; ++r) {
    if (r == comm.rank()) {
      if (dynamic) pids[static_cast<std::size_t>(r)] = static_cast<int>(getpid());
      continue;
    }
    const int pid = world.hostPeerPid(comm.worldRankOf(r));
    pids[static_cast<std::size_t>(r)] = pid;
    char probe = 0;
    const transport::RemotePiece piece{window.peer(r).probe, 1};
    if (pid == 0 || !transport::readProcessPieces(pid, &piece, 1, &probe)) readable = 0;
  }
  for (int ok : allgather(comm, readable)) {
    if (ok == 0) return;
  }
  window.useProcessMemory(std::move(pids));
}

// The window's memory and where its locks live, once every rank knows its peers.
void setUpMemory(Window& window, MPI_Aint size, int dispUnit) {
  const bool hostLocal = hostSegmentsAllowed() && everyRankOnThisHost(window);
  switch (window.flavor()) {
    case Flavor::Shared:
      setUpSharedMemory(window, size, dispUnit, {true, hostLocal, true});
      return;
    case Flavor::Allocate:
      if (hostLocal && setUpSharedMemory(window, size, dispUnit, {true, true, false})) return;
      {
        // Private memory: on several hosts, or where the host's shared memory ran out.
        std::unique_ptr<char[]> memory(size > 0 ? new char[static_cast<std::size_t>(size)] : nullptr);
        char* base = memory.get();
        window.setLocalMemory(base, size, dispUnit, std::move(memory));
      }
      return;
    case Flavor::Create:
      if (hostLocal && setUpSharedMemory(window, size, dispUnit, {false, true, false})) setUpProcessAccess(window);
      return;
    case Flavor::Dynamic:
      if (hostLocal && setUpSharedMemory(window, size, dispUnit, {false, true, false, true})) {
        setUpProcessAccess(window);
      }
      return;
  }
}

std::shared_ptr<Window> build(Communicator& comm, Flavor flavor, void* base, MPI_Aint size, int dispUnit) {
  auto window = std::make_shared<Window>(comm.world(), dupCommunicator(comm), flavor);
  window->setLocalMemory(base, size, dispUnit, nullptr);
  registerWindow(window);  // before any peer can learn its id
  try {
    PeerWindow mine;
    mine.size = static_cast<uint64_t>(size);
    mine.dispUnit = dispUnit;
    mine.id = window->id();
    mine.pid = static_cast<int32_t>(getpid());
    mine.base = reinterpret_cast<uintptr_t>(base);
    mine.probe = reinterpret_cast<uintptr_t>(&kProbeByte);
    window->setPeers(allgather(window->comm(), mine));
    setUpMemory(*window, size, dispUnit);
    window->publishAttributes();
  } catch (...) {
    unregisterWindow(*window);
    throw;
  }
  return window;
}

}  // namespace

std::shared_ptr<Window> createWindow(Communicator& comm, void* base, MPI_Aint size, int dispUnit) {
  checkShape(size, dispUnit);
  if (size > 0 && base == nullptr)
    fail(MPI_ERR_ARG, "base is a null pointer for a window of " + std::to_string(size) + " bytes");
  return build(comm, Flavor::Create, base, size, dispUnit);
}

std::shared_ptr<Window> allocateWindow(Communicator& comm, MPI_Aint size, int dispUnit) {
  checkShape(size, dispUnit);
  return build(comm, Flavor::Allocate, nullptr, size, dispUnit);
}

std::shared_ptr<Window> allocateSharedWindow(Communicator& comm, MPI_Aint size, int dispUnit) {
  checkShape(size, dispUnit);
  return build(comm, Flavor::Shared, nullptr, size, dispUnit);
}

std::shared_ptr<Window> createDynamicWindow(Communicator& comm) {
  return build(comm, Flavor::Dynamic, MPI_BOTTOM, 0, 1);
}

void freeWindow(Window& window) {
  window.free();
  unregisterWindow(window);
}

}  // namespace zmpi::mpi::rma
