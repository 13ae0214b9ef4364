#include "transport/server.h"

#include <stdexcept>

#include "transport/errors.h"
#include "transport/frames.h"
#include "transport/log.h"
#include "transport/tsan_annotations.h"

namespace zmpi::transport {
namespace {

// Async messages handled per wake-up before the control and sync sockets are polled
// again, so a flood of async traffic can neither delay shutdown nor starve sync calls.
constexpr int kAsyncBatch = 64;

std::string uniqueControlEndpoint() {
  static std::atomic<uint64_t> counter{0};
  return "inproc://zmpi-server-control-" + std::to_string(counter.fetch_add(1));
}

}  // namespace

MessageServer::MessageServer(const ServerOptions& options)
    : name_(options.name),
      jobHash_(options.jobHash),
      async_(zmq::socket_type::pull, options.socket),
      sync_(zmq::socket_type::rep, options.socket),
      control_(zmq::socket_type::pair),
      stopper_(zmq::socket_type::pair) {
  if (!options.asyncEndpoint.empty()) asyncEndpoint_ = async_.bind(options.asyncEndpoint);
  if (!options.syncEndpoint.empty()) syncEndpoint_ = sync_.bind(options.syncEndpoint);
  const std::string control = uniqueControlEndpoint();
  control_.bind(control);
  stopper_.connect(control);
}

MessageServer::~MessageServer() {
  bool running;
  {
    std::lock_guard lock(lifecycle_);
    running = thread_.joinable() && !stopped_;
  }
  if (running) {
    log::get("transport")->error("{}: destroyed while running; a subclass must call stop() in its destructor", name_);
  }
  try {
    stop();
  } catch (const std::exception& error) {
    log::get("transport")->error("{}: stop in destructor failed: {}", name_, error.what());
  }
}

void MessageServer::start() {
  std::lock_guard lock(lifecycle_);
  if (stopped_ || thread_.joinable()) throw std::logic_error(name_ + ": start() called twice or after stop()");
  thread_ = std::thread([this] { serve(); });
}

void MessageServer::stop() {
  std::lock_guard lock(lifecycle_);
  if (stopped_) return;
  if (thread_.joinable()) {
    if (thread_.get_id() == std::this_thread::get_id()) {
      throw std::logic_error(name_ + ": stop() called from its own handler would join itself");
    }
    // The control pipe is empty and local, so this send cannot block.
    checked("send shutdown to", name_,
            [&] { return zmqSend(stopper_.raw(), zmq::str_buffer("stop"), zmq::send_flags::none); });
    thread_.join();
  }
  stopped_ = true;
  // The thread is gone, so nobody else touches these sockets any more.
  async_.close();
  sync_.close();
  control_.close();
  stopper_.close();
}

void MessageServer::serve() {
  try {
    for (;;) {
      zmq::pollitem_t items[] = {{control_.raw().handle(), 0, ZMQ_POLLIN, 0},
                                 {async_.raw().handle(), 0, ZMQ_POLLIN, 0},
                                 {sync_.raw().handle(), 0, ZMQ_POLLIN, 0}};
      checked("poll in", name_, [&] { return zmqPoll(items, 3, std::chrono::milliseconds(-1)); });
      // Control first: once asked to stop, no further message is handled.
      if (items[0].revents & ZMQ_POLLIN) return;
      if (items[1].revents & ZMQ_POLLIN) serveAsync();
      if (items[2].revents & ZMQ_POLLIN) serveSync();
    }
  } catch (const std::exception& error) {
    // Only a broken socket or a context closed under the server gets here (rule 4 says
    // that must not happen); log it rather than take the whole process down.
    log::get("transport")->error("{}: serving thread ended: {}", name_, error.what());
  }
}

void MessageServer::serveAsync() {
  for (int i = 0; i < kAsyncBatch; ++i) {
    auto frames = receiveFrames(async_.raw(), asyncEndpoint_);
    if (!frames) return;
    WireMessage message;
    try {
      message = decodeMessage(std::move(*frames), jobHash_);
    } catch (const MalformedMessage& error) {
      rejected_.fetch_add(1);
      log::get("transport")->warn("{}: rejected an async message on {}: {}", name_, asyncEndpoint_, error.what());
      continue;
    }
    try {
      handleAsync(std::move(message));
    } catch (const std::exception& error) {
      handlerFailures_.fetch_add(1);
      log::get("transport")->error("{}: async handler failed: {}", name_, error.what());
    }
  }
}

void MessageServer::serveSync() {
  // REP: exactly one reply per request, whatever happens, or the REQ peer waits forever
  // and this socket refuses the next request.
  auto frames = receiveFrames(sync_.raw(), syncEndpoint_);
  if (!frames) return;
  WireMessage request;
  try {
    request = decodeMessage(std::move(*frames), jobHash_);
  } catch (const MalformedMessage& error) {
    rejected_.fetch_add(1);
    log::get("transport")->warn("{}: rejected a sync request on {}: {}", name_, syncEndpoint_, error.what());
    replyError(std::string("malformed request: ") + error.what());
    return;
  }
  WireMessage answer;
  try {
    answer = handleSync(std::move(request));
  } catch (const std::exception& error) {
    handlerFailures_.fetch_add(1);
    log::get("transport")->warn("{}: sync handler failed: {}", name_, error.what());
    replyError(std::string("handler failed: ") + error.what());
    return;
  }
  reply(answer.header, std::move(answer.payload));
}

void MessageServer::reply(WireHeader header, zmq::message_t&& payload) {
  header.magic = kWireMagic;
  header.version = kWireVersion;
  header.jobHash = jobHash_;
  // REP never blocks on send (a vanished peer's reply is dropped), dontwait only makes
  // that explicit.
  if (!sendMessage(sync_.raw(), syncEndpoint_, header, std::move(payload), zmq::send_flags::dontwait)) {
    log::get("transport")->warn("{}: reply on {} dropped", name_, syncEndpoint_);
  }
}

void MessageServer::replyError(const std::string& text) {
  WireHeader header;
  header.kind = kErrorReplyKind;
  reply(header, makePayload(text.data(), text.size()));
}

void MessageServer::handleAsync(WireMessage&& message) {
  throw std::runtime_error(name_ + " has no async handler (message kind " + std::to_string(message.header.kind) + ")");
}

WireMessage MessageServer::handleSync(WireMessage&& request) {
  throw std::runtime_error(name_ + " has no sync handler (request kind " + std::to_string(request.header.kind) + ")");
}

}  // namespace zmpi::transport
