#include "mpi/capi/runtime.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "mpi/capi/predefined_handles.h"
#include "mpi/coll/shm_area.h"
#include "mpi/coll/shm_wait.h"
#include "mpi/core/cpu_binding.h"
#include "mpi/core/environment.h"
#include "mpi/core/error.h"
#include "mpi/core/keyval.h"
#include "mpi/init/launch_contract.h"
#include "mpi/init/process_manager.h"
#include "transport/log.h"

namespace zmpi::mpi::capi {

Runtime& Runtime::instance() {
  // Never destroyed: MPI calls can come from atexit handlers after main returns.
  static Runtime* runtime = new Runtime();
  return *runtime;
}

void Runtime::init(int requiredThreadLevel) {
  std::lock_guard lock(mutex_);
  if (state_ == State::Initialized) fail(MPI_ERR_OTHER, "MPI is already initialized");
  if (state_ == State::Finalized) fail(MPI_ERR_OTHER, "MPI cannot be initialized again after MPI_Finalize");
  bindPredefinedHandles();
  bindFromEnvironment();  // before any thread of ours starts: they inherit the binding
  if (coll::shmCollectivesEnabled()) coll::prepareSleeperFences();  // overlaps the world's start-up
  // zmpirun's ranks (ZMPI_RANK) take their world from its rendezvous even when zmpirun
  // itself runs under a manager.
  if (!settingIfSet(contract::kRank)) {
    manager_ = connectProcessManager(WorldConfig::startupTimeoutFromEnvironment());
  }
  WorldConfig config = WorldConfig::fromEnvironment(manager_);
  log::setRankTag(std::to_string(config.rank));
  context_ = std::make_unique<transport::ContextOwner>();
  try {
    world_ = std::make_unique<World>(config);
  } catch (...) {
    context_.reset();
    throw;
  }
  bindWorldHandles(*world_);
  // Every engine structure is behind a mutex and sends are serialised per peer, so
  // concurrent calls from several threads are safe.
  threadLevel_ = std::min(std::max(requiredThreadLevel, static_cast<int>(MPI_THREAD_SINGLE)),
                          static_cast<int>(MPI_THREAD_MULTIPLE));
  world_->engine().setSendsSerialized(threadLevel_ < MPI_THREAD_MULTIPLE);
  mainThread_ = std::this_thread::get_id();
  state_ = State::Initialized;
  liveWorld.store(world_.get(), std::memory_order_release);
}

void Runtime::finalize() {
  std::lock_guard lock(mutex_);
  if (state_ != State::Initialized) fail(MPI_ERR_OTHER, "MPI_Finalize called while MPI is not initialized");
  // MPI-3.1 8.7.1: MPI_COMM_SELF's attributes are deleted first, as if it were freed
  // (libraries hook their clean-up there), then MPI_COMM_WORLD's.
  deleteAllAttributes(world_->commSelf());
  deleteAllAttributes(world_->commWorld());
  world_->notifyFinalizing();
  runFinalizeBarrier(*world_);
  unbindWorldHandles();
  world_->shutdown();
  liveWorld.store(nullptr, std::memory_order_release);
  world_.reset();
  context_->close();
  context_.reset();
  if (manager_) manager_->finalize();
  state_ = State::Finalized;
}

void failNoWorld() {
  if (Runtime::instance().state() == State::NotInitialized) fail(MPI_ERR_OTHER, "called before MPI_Init");
  fail(MPI_ERR_OTHER, "called after MPI_Finalize");
}

void abortJob(int code, const std::string& what) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  World* world = Runtime::instance().world();
  const std::string prefix = std::string("[") + host + ":" + std::to_string(getpid()) + "] ";
  std::fflush(stdout);
  std::cerr << prefix << what << '\n';  // (std::cerr is unit-buffered)
  if (world) {
    try {
      world->notifyAborting(code);
    } catch (...) {
    }
  }
  // The manager ends the job's other ranks (srun's step, mpirun's job) at once.
  if (ProcessManager* manager = Runtime::instance().manager()) manager->abort(code, what);
  std::fflush(nullptr);
  _exit(code == 0 ? 1 : code);
}

}  // namespace zmpi::mpi::capi
