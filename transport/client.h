#pragma once
// The client side of a MessageServer (transport rule 3): one PUSH socket for async sends
// and one REQ socket for sync calls, connected at construction and held for the
// client's whole life. Every sync call has a deadline; on timeout the REQ socket is
// replaced (a REQ socket that never got its reply refuses to send again), so the client
// stays usable and a late reply to the abandoned request is dropped, never mistaken for
// the answer to the next one. Thread-safe: each socket is used under its own mutex.
#include <chrono>
#include <mutex>
#include <string>

#include "transport/socket.h"
#include "transport/wire.h"

namespace zmpi::transport {

struct ClientOptions {
  std::string asyncEndpoint;  // the server's asyncEndpoint(); empty: asyncSend throws
  std::string syncEndpoint;   // the server's syncEndpoint(); empty: syncSend throws
  uint64_t jobHash = 0;       // stamped on every header, and required on replies (0: any)
  // Send timeout for asyncSend when the server is not draining (PUSH blocks at its high
  // water mark); -1 blocks, as SocketOptions does. Sync calls use their own deadline.
  SocketOptions socket{};
};

class MessageClient {
 public:
  explicit MessageClient(const ClientOptions& options);
  MessageClient(const MessageClient&) = delete;
  MessageClient& operator=(const MessageClient&) = delete;

  // Queues header + payload for the server. header.jobHash and payloadBytes are filled
  // in. Throws TimeoutError if the queue stays full past the send timeout.
  void asyncSend(const WireHeader& header, zmq::message_t&& payload = zmq::message_t());

  // Sends a request and waits up to `timeout` for the reply. Throws TimeoutError naming
  // the server and the timeout, RemoteError if the server answered with an error reply,
  // MalformedMessage if the reply does not follow the wire format.
  WireMessage syncSend(const WireHeader& header, zmq::message_t&& payload, std::chrono::milliseconds timeout);
  WireMessage syncSend(const WireHeader& header, std::chrono::milliseconds timeout) {
    return syncSend(header, zmq::message_t(), timeout);
  }

  const std::string& asyncEndpoint() const { return asyncEndpoint_; }
  const std::string& syncEndpoint() const { return syncEndpoint_; }
  // Sync calls that timed out and caused a socket reset (for tests and diagnostics).
  uint64_t resetCount() const;

  void close();

 private:
  Socket makeRequestSocket();
  void resetRequestSocket();

  std::string asyncEndpoint_;
  std::string syncEndpoint_;
  uint64_t jobHash_;
  SocketOptions options_;
  std::mutex asyncMutex_;
  Socket push_;
  mutable std::mutex syncMutex_;
  Socket request_;
  uint64_t resets_ = 0;
};

}  // namespace zmpi::transport
