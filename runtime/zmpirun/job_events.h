#pragma once
// Rendezvous events (a rank joined, is finalizing, is aborting) handed from the
// rendezvous server's thread to the launcher's poll loop: a queue plus an eventfd that
// wakes the loop. Wakeups coalesce, so the loop always drains the whole queue.
#include <mutex>
#include <vector>

#include "runtime/common/unique_fd.h"
#include "transport/rendezvous.h"

namespace zmpi::runtime {

struct JobEvent {
  enum class Kind { Joined, Finalizing, Aborting, Goodbye };
  Kind kind;
  int rank;
  int code;
};

class JobEventQueue {
 public:
  JobEventQueue();
  JobEventQueue(const JobEventQueue&) = delete;
  JobEventQueue& operator=(const JobEventQueue&) = delete;

  // Any thread.
  void push(const JobEvent& event);
  // The poll loop: everything queued so far, in order.
  std::vector<JobEvent> drain();
  int fd() const { return wake_.get(); }

  // Handlers to give the rendezvous server; they push into this queue.
  transport::RendezvousServer::EventHandler eventHandler();
  transport::RendezvousServer::JoinHandler joinHandler();

 private:
  UniqueFd wake_;
  std::mutex mutex_;
  std::vector<JobEvent> events_;
};

}  // namespace zmpi::runtime
