#include "mpi/rma/window_create.h"

#include <unistd.h>

#include <string>
#include <vector>

#include "mpi/comm/constructors.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"
#include "mpi/rma/exchange.h"
#include "mpi/rma/registry.h"
#include "mpi/rma/shared_segment.h"

namespace zmpi::mpi::rma {
namespace {

void checkShape(MPI_Aint size, int dispUnit) {
  if (size < 0) fail(MPI_ERR_SIZE, "window size " + std::to_string(size) + " is negative");
  if (dispUnit <= 0) fail(MPI_ERR_DISP, "displacement unit " + std::to_string(dispUnit) + " is not positive");
}

// Any rank's failure fails the call on every rank, with the first failing rank's code.
void agreeOnStatus(Communicator& comm, int status, const std::string& what) {
  for (int code : allgather(comm, status)) {
    if (code != MPI_SUCCESS) fail(code, what);
  }
}

// The host's lowest rank creates one segment for the host's ranks; the others map it
// once it exists. Every rank has mapped it before any returns, so no peer's direct load
// or store can reach memory its owner has not mapped yet.
void setUpSharedMemory(Window& window, MPI_Aint size, int dispUnit) {
  World& world = window.world();
  Communicator& comm = window.comm();
  std::vector<int> hostRanks;
  for (int r = 0; r < comm.size(); ++r) {
    if (world.hostOf(comm.worldRankOf(r)) == world.host()) hostRanks.push_back(r);
  }
  std::vector<std::size_t> offsets(static_cast<std::size_t>(comm.size()), 0);
  std::size_t total = 0;
  for (int r : hostRanks) {
    offsets[static_cast<std::size_t>(r)] = total;
    total += window.peer(r).size;
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
  if (comm.rank() == leader) attempt([&] { segment = SharedSegment::create(name, total); });
  agreeOnStatus(comm, status, failure.empty() ? "a host's shared-memory segment could not be created" : failure);
  if (comm.rank() != leader) attempt([&] { segment = SharedSegment::open(name, total); });
  agreeOnStatus(comm, status, failure.empty() ? "a rank could not map its host's shared-memory segment" : failure);
  std::vector<char*> direct(static_cast<std::size_t>(comm.size()), nullptr);
  for (int r : hostRanks) direct[static_cast<std::size_t>(r)] = segment->data() + offsets[static_cast<std::size_t>(r)];
  char* mine = direct[static_cast<std::size_t>(comm.rank())];
  window.setShared(std::move(segment), std::move(direct));
  window.setLocalMemory(mine, size, dispUnit, nullptr);
}

std::shared_ptr<Window> build(Communicator& comm, Flavor flavor, void* base, MPI_Aint size, int dispUnit,
                              std::unique_ptr<char[]> owned) {
  auto window = std::make_shared<Window>(comm.world(), dupCommunicator(comm), flavor);
  window->setLocalMemory(base, size, dispUnit, std::move(owned));
  registerWindow(window);  // before any peer can learn its id
  try {
    PeerWindow mine;
    mine.size = static_cast<uint64_t>(size);
    mine.dispUnit = dispUnit;
    mine.id = window->id();
    mine.pid = static_cast<int32_t>(getpid());
    window->setPeers(allgather(window->comm(), mine));
    if (flavor == Flavor::Shared) setUpSharedMemory(*window, size, dispUnit);
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
  return build(comm, Flavor::Create, base, size, dispUnit, nullptr);
}

std::shared_ptr<Window> allocateWindow(Communicator& comm, MPI_Aint size, int dispUnit) {
  checkShape(size, dispUnit);
  std::unique_ptr<char[]> memory(size > 0 ? new char[static_cast<std::size_t>(size)] : nullptr);
  char* base = memory.get();
  return build(comm, Flavor::Allocate, base, size, dispUnit, std::move(memory));
}

std::shared_ptr<Window> allocateSharedWindow(Communicator& comm, MPI_Aint size, int dispUnit) {
  checkShape(size, dispUnit);
  return build(comm, Flavor::Shared, nullptr, size, dispUnit, nullptr);
}

std::shared_ptr<Window> createDynamicWindow(Communicator& comm) {
  return build(comm, Flavor::Dynamic, MPI_BOTTOM, 0, 1, nullptr);
}

void freeWindow(Window& window) {
  window.free();
  unregisterWindow(window);
}

}  // namespace zmpi::mpi::rma
