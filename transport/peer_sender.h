#pragma once
// The sending end of one ordered (sender, receiver) stream: a PUSH socket connected to
// the peer's inbox. zmq keeps messages on one pipe in order, which is what MPI's
// non-overtaking rule needs. send() is thread-safe: the socket is used under a mutex
// (zmq sockets may move between threads behind a full memory barrier).
#include <chrono>
#include <mutex>
#include <string>

#include "transport/socket.h"
#include "transport/wire.h"

namespace zmpi::transport {

class PeerSender {
 public:
  PeerSender(const std::string& endpoint, const SocketOptions& options = {});

  // Sends header + payload. Throws TimeoutError if the peer does not drain within the
  // socket's send timeout, TransportError on other failures.
  void send(const WireHeader& header, zmq::message_t&& payload);
  void send(const WireHeader& header) { send(header, zmq::message_t()); }

  const std::string& endpoint() const { return endpoint_; }
  // How long closing may wait for what is still queued (the socket's ZMQ_LINGER).
  std::chrono::milliseconds linger();
  void close();

 private:
  std::mutex mutex_;
  std::string endpoint_;
  Socket socket_;
};

}  // namespace zmpi::transport
