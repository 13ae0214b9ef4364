#include "transport/socket.h"

#include <charconv>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>

#include "transport/context.h"
#include "transport/errors.h"
#include "transport/link_security.h"
#include "transport/log.h"
#include "transport/settings.h"

namespace zmpi::transport {
namespace {

const IntSetting kLingerSetting{
    "ZMPI_LINGER_MS", 1000,          {0, std::numeric_limits<int>::max()},
    "milliseconds",   Level::Tuning, "how long a closing socket keeps trying to deliver what it holds"};

}  // namespace

std::chrono::milliseconds SocketOptions::parseLinger(const std::string& text) {
  int milliseconds = 0;
  const char* end = text.data() + text.size();
  // from_chars takes no sign or space and reports overflow; "-1" fails on the sign check.
  const auto [stop, error] = std::from_chars(text.data(), end, milliseconds);
  if (text.empty() || text[0] == '-' || error != std::errc() || stop != end) {
    throw TransportError("ZMPI_LINGER_MS=" + text + " is not a whole number of milliseconds (0 to " +
                         std::to_string(std::numeric_limits<int>::max()) + ")");
  }
  return std::chrono::milliseconds(milliseconds);
}

std::chrono::milliseconds SocketOptions::defaultLinger() {
  // Read once (a static initialised by a throwing lambda is retried, so every socket a
  // process opens fails the same way until the variable is fixed).
  static const std::chrono::milliseconds value = [] { return std::chrono::milliseconds(kLingerSetting.read()); }();
  return value;
}

Socket::Socket(zmq::socket_type type, const SocketOptions& options)
    : socket_(ContextOwner::context(), type), counted_(true) {
  noteSocketOpened();
  socket_.set(zmq::sockopt::linger, static_cast<int>(options.linger.count()));
  if (options.sendTimeout.count() >= 0)
    socket_.set(zmq::sockopt::sndtimeo, static_cast<int>(options.sendTimeout.count()));
  if (options.receiveTimeout.count() >= 0)
    socket_.set(zmq::sockopt::rcvtimeo, static_cast<int>(options.receiveTimeout.count()));
  if (options.sendHighWater > 0) socket_.set(zmq::sockopt::sndhwm, options.sendHighWater);
  if (options.receiveHighWater > 0) socket_.set(zmq::sockopt::rcvhwm, options.receiveHighWater);
  if (options.maxMessageSize > 0) socket_.set(zmq::sockopt::maxmsgsize, options.maxMessageSize);
  if (options.linkKeys) applyLinkKeys(socket_, *options.linkKeys, options.linkServer);
  bindRetries_ = options.bindRetries;
}

Socket::~Socket() { close(); }

Socket::Socket(Socket&& other) noexcept
    : socket_(std::move(other.socket_)),
      peer_(std::move(other.peer_)),
      counted_(other.counted_),
      bindRetries_(other.bindRetries_) {
  other.counted_ = false;
}

Socket& Socket::operator=(Socket&& other) noexcept {
  if (this != &other) {
    close();
    socket_ = std::move(other.socket_);
    peer_ = std::move(other.peer_);
    counted_ = other.counted_;
    bindRetries_ = other.bindRetries_;
    other.counted_ = false;
  }
  return *this;
}

void Socket::close() {
  socket_.close();
  if (counted_) {
    counted_ = false;
    noteSocketClosed();
  }
}

std::string Socket::bind(const std::string& endpoint) {
  for (int attempt = 0;; ++attempt) {
    try {
      socket_.bind(endpoint);
      peer_ = socket_.get(zmq::sockopt::last_endpoint);
      return peer_;
    } catch (const zmq::error_t& error) {
      // A wildcard port can race with another process; a fixed one may still be in
      // TIME_WAIT. Both clear quickly, so retry a bounded number of times.
      if (error.num() == EADDRINUSE && attempt < bindRetries_) {
        log::get("transport")->debug("bind {} in use, retry {}", endpoint, attempt + 1);
        // Waiting on the outside world (a port in TIME_WAIT): a bounded, growing backoff.
        std::this_thread::sleep_for(std::chrono::milliseconds(5 * (attempt + 1)));
        continue;
      }
      rethrowZmq(error, "bind", endpoint);
    }
  }
}

void Socket::connect(const std::string& endpoint) {
  // zmq connects asynchronously and retries by itself (reconnect_ivl); what can fail
  // here is only a malformed endpoint, reported at once.
  checked("connect to", endpoint, [&] { socket_.connect(endpoint); });
  peer_ = endpoint;
}

}  // namespace zmpi::transport
