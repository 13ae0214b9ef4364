#pragma once
// Shared pieces of the transport tests: an echo server that counts what it handled,
// endpoints of each kind (always read back, never a fixed port), the catalogue of
// malformed messages, and an fd count for leak checks.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "transport/client.h"
#include "transport/latch.h"
#include "transport/server.h"
#include "transport/tsan_annotations.h"
#include "transport/wire.h"

namespace zmpi::transport::test {

using namespace std::chrono_literals;

inline constexpr uint16_t kEchoKind = 7;
inline constexpr uint16_t kFailKind = 8;  // the echo server's sync handler throws on it

// Endpoint patterns by transport; bind() reads the real endpoint back.
enum class Kind { Tcp, Ipc, Inproc };
std::string endpointPattern(Kind kind);
const char* kindName(Kind kind);

// Echoes sync requests (kind and payload), throws on kFailKind, and records every
// async payload in arrival order. Waits are bounded so a lost message fails the test.
class EchoServer : public MessageServer {
 public:
  explicit EchoServer(const ServerOptions& options);
  ~EchoServer() override { stop(); }

  // True once at least `count` async messages were handled, within `timeout`.
  bool waitForAsync(size_t count, std::chrono::milliseconds timeout);
  bool waitForSync(size_t count, std::chrono::milliseconds timeout);
  std::vector<std::string> asyncPayloads();
  size_t syncCount();

 protected:
  void handleAsync(WireMessage&& message) override;
  WireMessage handleSync(WireMessage&& request) override;

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> async_;
  size_t sync_ = 0;
};

// Linger and send timeout short enough that a test against a dead peer ends promptly.
SocketOptions quickSocket();
ServerOptions serverOptions(Kind kind, uint64_t job, const std::string& name = "test-server");
ClientOptions clientFor(const MessageServer& server, SocketOptions socket = quickSocket());

WireHeader header(uint16_t kind);
zmq::message_t text(const std::string& s);

// One malformed message as raw frames, with what is wrong with it.
struct BadMessage {
  std::string what;
  std::vector<std::string> frames;
};
// Every way a message can break the wire format, for a receiver expecting `job`.
std::vector<BadMessage> badMessages(uint64_t job);
void sendRaw(zmq::socket_t& socket, const std::vector<std::string>& frames);
std::string rawHeader(const WireHeader& header);

int openFdCount();

// Runs a cleanup however the scope ends, so a failed REQUIRE still joins its threads
// (a joinable std::thread destroyed by the unwinding would terminate the process).
template <typename F>
struct ScopeExit {
  F f;
  ~ScopeExit() { f(); }
};
template <typename F>
ScopeExit(F) -> ScopeExit<F>;

}  // namespace zmpi::transport::test
