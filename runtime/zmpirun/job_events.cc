#include "runtime/zmpirun/job_events.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <system_error>

namespace zmpi::runtime {

JobEventQueue::JobEventQueue() : wake_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (!wake_) throw std::system_error(errno, std::generic_category(), "eventfd");
}

void JobEventQueue::push(const JobEvent& event) {
  {
    std::lock_guard lock(mutex_);
    events_.push_back(event);
  }
  const uint64_t one = 1;
  ssize_t ignored = ::write(wake_.get(), &one, sizeof one);  // only fails if the counter is saturated
  (void)ignored;
}

std::vector<JobEvent> JobEventQueue::drain() {
  uint64_t count;
  ssize_t ignored = ::read(wake_.get(), &count, sizeof count);  // reset the wakeup before taking the queue
  (void)ignored;
  std::lock_guard lock(mutex_);
  return std::exchange(events_, {});
}

transport::RendezvousServer::EventHandler JobEventQueue::eventHandler() {
  return [this](int participant, transport::RendezvousEvent event, int code) {
    JobEvent::Kind kind;
    switch (event) {
      case transport::RendezvousEvent::Finalizing:
        kind = JobEvent::Kind::Finalizing;
        break;
      case transport::RendezvousEvent::Aborting:
        kind = JobEvent::Kind::Aborting;
        break;
      default:
        kind = JobEvent::Kind::Goodbye;
        break;
    }
    push(JobEvent{kind, participant, code});
  };
}

transport::RendezvousServer::JoinHandler JobEventQueue::joinHandler() {
  return [this](int participant) { push(JobEvent{JobEvent::Kind::Joined, participant, 0}); };
}

}  // namespace zmpi::runtime
