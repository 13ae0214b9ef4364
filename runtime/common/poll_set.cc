#include "runtime/common/poll_set.h"

#include <cerrno>
#include <system_error>

#include "transport/tsan_annotations.h"

namespace zmpi::runtime {

void PollSet::wait(std::optional<std::chrono::milliseconds> timeout) {
  for (auto& item : items_) item.revents = 0;
  const long ms = timeout ? std::max<long>(0, static_cast<long>(timeout->count())) : -1;
  const int ready = zmq_poll(items_.data(), static_cast<int>(items_.size()), ms);
  if (ready < 0 && zmq_errno() != EINTR) throw std::system_error(zmq_errno(), std::generic_category(), "zmq_poll");
  if (ready > 0) transport::tsan::afterReceive();  // tsan_annotations.h
}

}  // namespace zmpi::runtime
