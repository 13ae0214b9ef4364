#pragma once
// RAII zmq socket with the options every zmpi socket must have (transport rule 2): a
// linger, optional timeouts, and bind/connect with a bounded number of retries. It is
// movable, not copyable, and counts itself so the context owner can detect leaks.
#include <chrono>
#include <memory>
#include <string>
#include <zmq.hpp>

namespace zmpi::transport {

struct LinkKeys;  // transport/link_security.h

struct SocketOptions {
  std::chrono::milliseconds linger{defaultLinger()};
  std::chrono::milliseconds sendTimeout{-1};     // -1: block
  std::chrono::milliseconds receiveTimeout{-1};  // -1: block
  int sendHighWater = 0;                         // 0: zmq default
  int receiveHighWater = 0;
  int bindRetries = 20;
  int64_t maxMessageSize = -1;  // -1: unlimited; enforced by zmq before allocation
  // The job's link credentials (link_security.h): a server socket accepts only clients
  // holding them, a client proves them. Null: plain zmq (no authentication).
  std::shared_ptr<const LinkKeys> linkKeys;
  bool linkServer = false;

  // ZMPI_LINGER_MS, default 1000 ms: long enough to flush a final message, short enough
  // that a dead peer never holds a closing process for long. Read once; a value that is
  // not a whole number of milliseconds (0 or more) throws TransportError naming it.
  static std::chrono::milliseconds defaultLinger();
  // `text` (the value of ZMPI_LINGER_MS) as a linger time: digits only, 0 to INT_MAX ms
  // (zmq's -1, linger forever, would let a dead peer hold a closing process for ever);
  // TransportError naming the variable otherwise.
  static std::chrono::milliseconds parseLinger(const std::string& text);
};

class Socket {
 public:
  Socket(zmq::socket_type type, const SocketOptions& options = {});
  ~Socket();
  Socket(Socket&& other) noexcept;
  Socket& operator=(Socket&& other) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  // Binds `endpoint` (e.g. "tcp://127.0.0.1:*"), retrying a bounded number of times on
  // EADDRINUSE, and returns the endpoint actually bound (the port read back).
  std::string bind(const std::string& endpoint);
  void connect(const std::string& endpoint);

  zmq::socket_t& raw() { return socket_; }
  zmq::socket_ref ref() { return socket_; }
  const std::string& peer() const { return peer_; }
  void close();

 private:
  zmq::socket_t socket_;
  std::string peer_;
  bool counted_ = false;
  int bindRetries_ = 20;
};

}  // namespace zmpi::transport
