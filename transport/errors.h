#pragma once
// Transport errors. Every zmq failure is turned into a TransportError in one place
// (rethrowZmq) with what was being done and to whom, so a log line or an MPI error
// message can say "connect to tcp://10.0.0.2:5000: Connection refused".
#include <stdexcept>
#include <string>

#include <zmq.hpp>

namespace zmpi::transport {

class TransportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A sync call whose reply did not arrive within its deadline.
class TimeoutError : public TransportError {
 public:
  using TransportError::TransportError;
};

// A frame or header that does not follow the wire format.
class MalformedMessage : public TransportError {
 public:
  using TransportError::TransportError;
};

// A server received the request but answered with an error reply (malformed request,
// or its handler failed); the text is the server's.
class RemoteError : public TransportError {
 public:
  using TransportError::TransportError;
};

[[noreturn]] void rethrowZmq(const zmq::error_t& error, const std::string& action, const std::string& peer);

// Runs `operation`, translating a zmq::error_t into TransportError naming action and peer.
template <typename Operation>
decltype(auto) checked(const std::string& action, const std::string& peer, Operation&& operation) {
  try {
    return operation();
  } catch (const zmq::error_t& error) {
    rethrowZmq(error, action, peer);
  }
}

}  // namespace zmpi::transport
