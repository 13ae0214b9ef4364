#pragma once
// Rendezvous: N participants each send one blob (where they listen, on which host) and
// every participant receives the table of all N blobs, indexed by participant. This is
// how a world learns its rank-to-endpoint mapping: the creator (launcher, or rank 0 when
// started by hand) runs the server and broadcasts the table explicitly. The same
// long-lived connection then carries job events (finalized, abort) to the creator.
// The transport knows only "participant i of N"; what a blob means is the caller's.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "transport/handshake_monitor.h"
#include "transport/rendezvous_codec.h"
#include "transport/service_thread.h"
#include "transport/socket.h"
#include "transport/wire.h"

namespace zmpi::transport {

enum class RendezvousEvent : uint16_t { Finalizing = 1, Aborting = 2, Goodbye = 3 };

class RendezvousServer {
 public:
  using EventHandler = std::function<void(int participant, RendezvousEvent event, int code)>;
  // Called from the server thread when a participant's hello arrives, before any table is
  // sent: an observer (the launcher) thus knows of every join before a participant can
  // have passed exchange(), e.g. to tell an MPI rank that died from a plain program.
  using JoinHandler = std::function<void(int participant)>;

  // Binds `endpoint` at once (so the caller can read the port back) and serves in a
  // background thread until stop(). If not all participants have said hello within
  // `startupTimeout`, those that did get an error reply naming the missing indices.
  RendezvousServer(const std::string& endpoint, uint64_t jobHash, int participants,
                   std::chrono::milliseconds startupTimeout, EventHandler onEvent = {}, JoinHandler onJoin = {},
                   std::shared_ptr<const LinkKeys> linkKeys = {});
  ~RendezvousServer();
  RendezvousServer(const RendezvousServer&) = delete;
  RendezvousServer& operator=(const RendezvousServer&) = delete;

  const std::string& endpoint() const { return endpoint_; }
  // Messages rejected as malformed or not fitting this job (logged, never fatal).
  uint64_t rejectedCount() const { return rejected_.load(); }
  // Connections refused in zmq's handshake (without the job's credentials, or not ZMTP
  // at all): they never deliver a message, so only this counts and logs them.
  uint64_t refusedConnections() const { return monitor_->refusedCount(); }
  // Stops through an explicit shutdown message on an inproc socket (transport rule 4).
  void stop();

 private:
  void serve(Socket router, Socket control);
  void serveLoop(Socket& router, Socket& control);
  void reject(const std::string& why);

  std::string endpoint_;
  uint64_t jobHash_;
  int participants_;
  std::chrono::milliseconds startupTimeout_;
  EventHandler onEvent_;
  JoinHandler onJoin_;
  std::atomic<uint64_t> rejected_{0};
  std::unique_ptr<HandshakeMonitor> monitor_;  // polled by the serving thread
  ServiceThread service_;
};

class RendezvousClient {
 public:
  // With `linkKeys` (server and client alike), only holders of the job's credentials get
  // through; the server's process must enrol them in its ZapAuthenticator
  // (link_security.h).
  RendezvousClient(const std::string& serverEndpoint, uint64_t jobHash, int participant, int participants,
                   std::shared_ptr<const LinkKeys> linkKeys = {});

  // Sends this participant's blob and waits up to `timeout` for the full table. Throws
  // TimeoutError if the server is not reachable in time, TransportError with the
  // server's message if other participants never came.
  std::vector<std::string> exchange(const std::string& blob, std::chrono::milliseconds timeout);

  // Fire-and-forget event to the creator (e.g. "finalizing", "aborting with code").
  void notify(RendezvousEvent event, int code = 0);
  // notify(), then waits up to `timeout` for the server to confirm it received the event
  // (for a process about to exit, whose queued message would otherwise die with it).
  bool notifyAndConfirm(RendezvousEvent event, int code, std::chrono::milliseconds timeout);

 private:
  std::string server_;
  uint64_t jobHash_;
  int participant_;
  int participants_;
  Socket socket_;
};

}  // namespace zmpi::transport
