#pragma once
// A long-lived message server (transport rules 3 and 4): one async PULL socket and one
// sync REP socket, both bound at construction and held until stop(), served by one
// background thread. Subclasses implement the two handlers; both run on that thread,
// one message at a time, so a handler needs no locking against the other.
//
// Life cycle, and why it is explicit: the thread calls virtual functions, so it must
// not run before the subclass is fully constructed nor after it starts being destroyed.
//   server.start();   // after construction
//   ...
//   server.stop();    // a subclass calls stop() first thing in its own destructor
// The base destructor stops a server still running, but by then the subclass part is
// gone (its handlers with it), so it logs that as an error: call stop() yourself.
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "transport/socket.h"
#include "transport/wire.h"

namespace zmpi::transport {

struct ServerOptions {
  std::string asyncEndpoint = "tcp://127.0.0.1:*";  // empty: no async socket is polled
  std::string syncEndpoint = "tcp://127.0.0.1:*";   // empty: no sync socket is polled
  uint64_t jobHash = 0;                             // 0: accept any job
  std::string name = "server";                      // for logs and thread diagnostics
  SocketOptions socket{};
};

class MessageServer {
 public:
  explicit MessageServer(const ServerOptions& options);
  virtual ~MessageServer();
  MessageServer(const MessageServer&) = delete;
  MessageServer& operator=(const MessageServer&) = delete;

  // Starts the serving thread. Call once, after the subclass is constructed.
  void start();
  // Sends the shutdown message on the inproc control socket, joins the thread and
  // closes the sockets. Messages not yet handled are dropped; a client waiting on a
  // sync reply gets its TimeoutError. Idempotent; must not be called from a handler.
  void stop();

  // Bound endpoints with the port (or ipc path) read back; empty if not configured.
  const std::string& asyncEndpoint() const { return asyncEndpoint_; }
  const std::string& syncEndpoint() const { return syncEndpoint_; }
  const std::string& name() const { return name_; }
  uint64_t jobHash() const { return jobHash_; }

  // Messages rejected as malformed (never handed to a handler).
  uint64_t rejectedCount() const { return rejected_.load(); }
  // Handler calls that threw (the exception is logged, the server keeps serving).
  uint64_t handlerFailureCount() const { return handlerFailures_.load(); }

 protected:
  // Defaults reject the message, so a server that needs only one side overrides one.
  virtual void handleAsync(WireMessage&& message);
  // Returns the reply; its jobHash and payloadBytes are filled in by the server. An
  // exception becomes an error reply (kErrorReplyKind) carrying its text.
  virtual WireMessage handleSync(WireMessage&& request);

 private:
  void serve();
  void serveAsync();
  void serveSync();
  void reply(WireHeader header, zmq::message_t&& payload);
  void replyError(const std::string& text);

  std::string name_;
  uint64_t jobHash_;
  Socket async_;
  Socket sync_;
  Socket control_;
  Socket stopper_;
  std::string asyncEndpoint_;
  std::string syncEndpoint_;
  std::mutex lifecycle_;
  std::thread thread_;
  bool stopped_ = false;
  std::atomic<uint64_t> rejected_{0};
  std::atomic<uint64_t> handlerFailures_{0};
};

}  // namespace zmpi::transport
