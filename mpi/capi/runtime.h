#pragma once
// The process's MPI state between MPI_Init and MPI_Finalize: the zmq context owner (one
// per process, closed in MPI_Finalize), the world, the thread level. Entry points reach
// the world through requireWorld(), which fails cleanly before MPI_Init or after
// MPI_Finalize instead of touching a dead object.
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "mpi/core/world.h"
#include "transport/context.h"

namespace zmpi::mpi::capi {

enum class State { NotInitialized, Initialized, Finalized };

class Runtime {
 public:
  static Runtime& instance();

  void init(int requiredThreadLevel);
  void finalize();
  State state() const { return state_; }
  int threadLevel() const { return threadLevel_; }
  bool isMainThread() const { return std::this_thread::get_id() == mainThread_; }
  World* world() { return world_.get(); }
  // The cluster manager that started this process (PMIx, PMI-2), or null: kept apart from
  // the world so that a failed MPI_Init can still ask it to end the job.
  ProcessManager* manager() { return manager_.get(); }

 private:
  std::mutex mutex_;
  State state_ = State::NotInitialized;
  int threadLevel_ = 0;
  std::thread::id mainThread_;
  std::unique_ptr<transport::ContextOwner> context_;
  std::shared_ptr<ProcessManager> manager_;
  std::unique_ptr<World> world_;
};

// The world while MPI is initialized, else null: set by Runtime::init once the world is up,
// cleared by Runtime::finalize before the world goes. requireWorld's fast path (every entry
// point calls it): one load instead of the function-local static's guard and two state checks.
inline std::atomic<World*> liveWorld{nullptr};

// Why there is no world: MpiError(MPI_ERR_OTHER) naming the state.
[[noreturn, gnu::cold]] void failNoWorld();

// The world, or MpiError(MPI_ERR_OTHER) naming the state when MPI is not initialized.
inline World& requireWorld() {
  if (World* world = liveWorld.load(std::memory_order_acquire)) [[likely]]
    return *world;
  failNoWorld();
}

// Prints what went wrong the way Open MPI does, tells the launcher, and ends the process
// with `code` (MPI_Abort and MPI_ERRORS_ARE_FATAL).
[[noreturn]] void abortJob(int code, const std::string& what);

}  // namespace zmpi::mpi::capi
