#include "transport/client.h"

#include "transport/errors.h"
#include "transport/frames.h"
#include "transport/log.h"
#include "transport/tsan_annotations.h"

namespace zmpi::transport {
namespace {

using Clock = std::chrono::steady_clock;

std::chrono::milliseconds remaining(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return std::max(left, std::chrono::milliseconds(0));
}

// Waits for `events` on `socket` until `deadline`; false if the deadline passed first.
bool pollUntil(Socket& socket, short events, Clock::time_point deadline, const char* action) {
  for (;;) {
    zmq::pollitem_t item{socket.raw().handle(), 0, events, 0};
    checked(action, socket.peer(), [&] { return zmqPoll(&item, 1, remaining(deadline)); });
    if (item.revents & events) return true;
    if (Clock::now() >= deadline) return false;
  }
}

}  // namespace

MessageClient::MessageClient(const ClientOptions& options)
    : asyncEndpoint_(options.asyncEndpoint),
      syncEndpoint_(options.syncEndpoint),
      jobHash_(options.jobHash),
      options_(options.socket),
      push_(zmq::socket_type::push, options.socket),
      request_(makeRequestSocket()) {
  if (!asyncEndpoint_.empty()) push_.connect(asyncEndpoint_);
}

Socket MessageClient::makeRequestSocket() {
  Socket socket(zmq::socket_type::req, options_);
  if (!syncEndpoint_.empty()) socket.connect(syncEndpoint_);
  return socket;
}

void MessageClient::resetRequestSocket() {
  // The abandoned request may still sit in the queue to a dead server; drop it at once
  // instead of letting it linger and hold up the context's close.
  request_.raw().set(zmq::sockopt::linger, 0);
  request_ = makeRequestSocket();
  ++resets_;
}

void MessageClient::asyncSend(const WireHeader& header, zmq::message_t&& payload) {
  if (asyncEndpoint_.empty()) throw TransportError("asyncSend on a client without an async endpoint");
  std::lock_guard lock(asyncMutex_);
  WireHeader stamped = header;
  stamped.jobHash = jobHash_;
  if (!sendMessage(push_.raw(), asyncEndpoint_, stamped, std::move(payload))) {
    throw TimeoutError("async send to " + asyncEndpoint_ + " timed out after " +
                       std::to_string(options_.sendTimeout.count()) + " ms (server not draining)");
  }
}

WireMessage MessageClient::syncSend(const WireHeader& header, zmq::message_t&& payload,
                                    std::chrono::milliseconds timeout) {
  if (syncEndpoint_.empty()) throw TransportError("syncSend on a client without a sync endpoint");
  std::lock_guard lock(syncMutex_);
  const auto deadline = Clock::now() + timeout;
  WireHeader stamped = header;
  stamped.jobHash = jobHash_;
  const auto timedOut = [&](const char* stage) {
    resetRequestSocket();
    return TimeoutError("sync call to " + syncEndpoint_ + " (kind " + std::to_string(header.kind) +
                        "): no reply within " + std::to_string(timeout.count()) + " ms (" + stage + ")");
  };
  // REQ queues on a connecting pipe, so POLLOUT normally holds at once; the poll only
  // bounds the wait when the queue is full.
  if (!pollUntil(request_, ZMQ_POLLOUT, deadline, "wait to send request to") ||
      !sendMessage(request_.raw(), syncEndpoint_, stamped, std::move(payload), zmq::send_flags::dontwait)) {
    throw timedOut("request not sent");
  }
  if (!pollUntil(request_, ZMQ_POLLIN, deadline, "wait for reply from")) throw timedOut("request sent");
  auto frames = receiveFrames(request_.raw(), syncEndpoint_);
  if (!frames) throw timedOut("reply vanished");
  // The REQ socket got its reply and may send again, whatever the reply holds.
  WireMessage reply = decodeMessage(std::move(*frames), jobHash_);
  if (reply.header.kind == kErrorReplyKind) {
    throw RemoteError("sync call to " + syncEndpoint_ + " failed: " + reply.payload.to_string());
  }
  return reply;
}

uint64_t MessageClient::resetCount() const {
  std::lock_guard lock(syncMutex_);
  return resets_;
}

void MessageClient::close() {
  std::scoped_lock lock(asyncMutex_, syncMutex_);
  push_.close();
  request_.close();
}

}  // namespace zmpi::transport
