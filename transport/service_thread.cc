#include "transport/service_thread.h"

#include <atomic>

#include "transport/tsan_annotations.h"

namespace zmpi::transport {

std::string uniqueInprocName(const std::string& what) {
  static std::atomic<int> counter{0};
  return "inproc://zmpi-" + what + "-" + std::to_string(counter.fetch_add(1));
}

void ServiceThread::stop() {
  if (!thread_.joinable()) return;
  (void)zmqSend(stopper_->raw(), zmq::str_buffer("stop"), zmq::send_flags::none);
  thread_.join();
  stopper_.reset();
}

}  // namespace zmpi::transport
