#pragma once
// Logs the connections a server socket refused during zmq's handshake (a stranger without
// the job's credentials, a plain or garbled peer): they never deliver a frame, so without
// this nothing would record them. A zmq socket monitor (inproc PAIR) polled by the
// socket's owner next to the socket itself; logging is rate-limited (log::rejectLevel).
#include <atomic>
#include <cstdint>
#include <string>

#include "transport/socket.h"

namespace zmpi::transport {

class HandshakeMonitor {
 public:
  // Call before `socket` binds. `label` prefixes each log line (e.g. "rendezvous: ").
  explicit HandshakeMonitor(Socket& socket, std::string label = {});
  HandshakeMonitor(const HandshakeMonitor&) = delete;
  HandshakeMonitor& operator=(const HandshakeMonitor&) = delete;

  // For the owner's poll set; then drain() when it is readable.
  zmq::pollitem_t pollItem() { return {events_.raw().handle(), 0, ZMQ_POLLIN, 0}; }
  void drain();
  uint64_t refusedCount() const { return refused_.load(); }
  void close() { events_.close(); }

 private:
  Socket events_;
  std::string label_;
  std::atomic<uint64_t> refused_{0};
};

}  // namespace zmpi::transport
