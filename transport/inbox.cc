#include "transport/inbox.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include "transport/errors.h"
#include "transport/log.h"
#include "transport/tsan_annotations.h"

namespace zmpi::transport {

Inbox::Inbox(uint64_t jobHash, const SocketOptions& options)
    : jobHash_(jobHash), socket_(zmq::socket_type::pull, options) {
  wakeFd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wakeFd_ < 0) throw TransportError("eventfd for inbox wakeups failed");
  monitor_ = std::make_unique<HandshakeMonitor>(socket_);
}

Inbox::~Inbox() {
  socket_.close();
  monitor_.reset();
  if (wakeFd_ >= 0) ::close(wakeFd_);
}

std::string Inbox::bind(const std::string& endpoint) {
  std::string bound = socket_.bind(endpoint);
  endpoints_.push_back(bound);
  return bound;
}

void Inbox::wake() {
  uint64_t one = 1;
  // A full counter (never in practice) still leaves the fd readable: the wake is not lost.
  [[maybe_unused]] ssize_t written = ::write(wakeFd_, &one, sizeof one);
}

void Inbox::drainWakeups() {
  uint64_t count;
  while (::read(wakeFd_, &count, sizeof count) > 0) {
  }
}

std::optional<WireMessage> Inbox::tryReceiveOne() {
  zmq::socket_t& s = socket_.raw();
  for (;;) {
    zmq::message_t header;
    if (!checked("receive on", socket_.peer(), [&] { return zmqRecv(s, header, zmq::recv_flags::dontwait); })) {
      return std::nullopt;
    }
    std::optional<zmq::message_t> payload;
    bool extra = false;
    if (header.more()) {
      payload.emplace();
      // The remaining frames of a multipart message are already here (zmq delivers
      // messages atomically), so these receives never block.
      (void)checked("receive payload on", socket_.peer(), [&] { return zmqRecv(s, *payload, zmq::recv_flags::none); });
      while (payload->more()) {
        zmq::message_t discard;
        (void)zmqRecv(s, discard, zmq::recv_flags::none);
        extra = true;
        if (!discard.more()) break;
      }
    }
    try {
      return decodeFrames(std::move(header), std::move(payload), extra, jobHash_);
    } catch (const MalformedMessage& error) {
      const uint64_t n = rejected_.fetch_add(1) + 1;
      log::get("transport")
          ->log(log::rejectLevel(n), "rejected a message on {} ({} so far): {}", socket_.peer(), n, error.what());
    }
  }
}

std::optional<WireMessage> Inbox::receive(std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::max(timeout, std::chrono::milliseconds(0));
  for (;;) {
    if (auto message = tryReceiveOne()) return message;
    auto wait = timeout;
    if (timeout.count() >= 0) {
      wait = std::max(std::chrono::milliseconds(0),
                      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
    }
    zmq::pollitem_t items[] = {
        {socket_.raw().handle(), 0, ZMQ_POLLIN, 0}, {nullptr, wakeFd_, ZMQ_POLLIN, 0}, monitor_->pollItem()};
    checked("poll on", socket_.peer(), [&] { return zmqPoll(items, 3, wait); });
    if (items[2].revents & ZMQ_POLLIN) monitor_->drain();
    if (items[1].revents & ZMQ_POLLIN) {
      drainWakeups();
      return tryReceiveOne();
    }
    if (!(items[0].revents & ZMQ_POLLIN)) {
      if (items[2].revents & ZMQ_POLLIN && (timeout.count() < 0 || Clock::now() < deadline)) continue;
      return std::nullopt;  // timed out
    }
    // Readable but possibly only malformed messages, which tryReceiveOne drops: keep
    // waiting for the rest of the timeout instead of returning a spurious nullopt.
    if (timeout.count() >= 0 && Clock::now() >= deadline) return tryReceiveOne();
  }
}

}  // namespace zmpi::transport
