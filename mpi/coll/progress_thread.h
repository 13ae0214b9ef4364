#pragma once
// The thread that advances nonblocking collectives when the program is not calling MPI
// (see async.h). One per process, serving every world and communicator: it only runs
// short passes that never wait, so one thread suffices. Started on first use; stopped and
// joined when the process exits (it owns no socket, so it may outlive MPI_Finalize).
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace zmpi::mpi::coll {

class CollectiveProgress {
 public:
  static CollectiveProgress& instance();
  ~CollectiveProgress();

  // Queues `work` to run on the thread. Cheap and non-blocking: safe in completion
  // callbacks on any thread.
  void post(std::function<void()> work);

 private:
  CollectiveProgress();
  void loop();

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace zmpi::mpi::coll
