#pragma once
// One poll over plain descriptors (pipes, signalfds, eventfds) and zmq sockets together,
// rebuilt each turn of a loop: each component adds what it waits for and remembers the
// index it got back, then checks its own entries after wait().
#include <zmq.h>

#include <chrono>
#include <optional>
#include <vector>

namespace zmpi::runtime {

class PollSet {
 public:
  size_t addFd(int fd, short events) {
    items_.push_back(zmq_pollitem_t{nullptr, fd, events, 0});
    return items_.size() - 1;
  }
  size_t addSocket(void* socket, short events) {
    items_.push_back(zmq_pollitem_t{socket, 0, events, 0});
    return items_.size() - 1;
  }
  // ZMQ_POLLERR covers POLLHUP on a descriptor: for a pipe it means "read to see EOF".
  bool readable(size_t index) const { return (items_[index].revents & (ZMQ_POLLIN | ZMQ_POLLERR)) != 0; }
  bool writable(size_t index) const { return (items_[index].revents & (ZMQ_POLLOUT | ZMQ_POLLERR)) != 0; }

  // Waits until something is ready or `timeout` passes (nullopt: no timeout).
  void wait(std::optional<std::chrono::milliseconds> timeout);

 private:
  std::vector<zmq_pollitem_t> items_;
};

}  // namespace zmpi::runtime
