#pragma once
// The receiving end of the data path: one PULL socket bound to one or more endpoints
// (tcp for remote peers, ipc for same-host ones) plus an eventfd in the same poll set, so
// any thread can wake a receiver blocked in receive() (DESIGN.md, region-event rule 4).
// Only the owning (progress) thread calls receive(); wake() is safe from any thread.
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "transport/handshake_monitor.h"
#include "transport/socket.h"
#include "transport/wire.h"

namespace zmpi::transport {

class Inbox {
 public:
  Inbox(uint64_t jobHash, const SocketOptions& options = {});
  ~Inbox();
  Inbox(const Inbox&) = delete;
  Inbox& operator=(const Inbox&) = delete;

  // Binds one more endpoint and returns it with the port read back.
  std::string bind(const std::string& endpoint);
  const std::vector<std::string>& endpoints() const { return endpoints_; }

  // Waits up to `timeout` (negative: forever) for one message. Returns nullopt on timeout
  // or when woken. Malformed frames are logged, counted and dropped: never thrown at the
  // caller, never a crash.
  std::optional<WireMessage> receive(std::chrono::milliseconds timeout);

  void wake();
  uint64_t rejectedCount() const { return rejected_.load(); }
  // Connections refused in zmq's handshake (no CURVE keys of this job, or not ZMTP at all).
  uint64_t refusedConnections() const { return monitor_ ? monitor_->refusedCount() : 0; }

 private:
  std::optional<WireMessage> tryReceiveOne();
  void drainWakeups();

  uint64_t jobHash_;
  Socket socket_;
  std::unique_ptr<HandshakeMonitor> monitor_;
  int wakeFd_ = -1;
  std::vector<std::string> endpoints_;
  std::atomic<uint64_t> rejected_{0};
};

}  // namespace zmpi::transport
