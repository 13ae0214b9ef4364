#include "transport/peer_sender.h"

#include "transport/errors.h"
#include "transport/tsan_annotations.h"

namespace zmpi::transport {

PeerSender::PeerSender(const std::string& endpoint, const SocketOptions& options)
    : endpoint_(endpoint), socket_(zmq::socket_type::push, options) {
  socket_.connect(endpoint);
}

void PeerSender::send(const WireHeader& header, zmq::message_t&& payload) {
  std::lock_guard lock(mutex_);
  zmq::socket_t& s = socket_.raw();
  const bool hasPayload = header.payloadBytes > 0;
  zmq::message_t headerFrame(&header, sizeof header);
  auto sent = checked("send header to", endpoint_, [&] {
    return zmqSend(s, headerFrame, hasPayload ? zmq::send_flags::sndmore : zmq::send_flags::none);
  });
  if (!sent) throw TimeoutError("send to " + endpoint_ + " timed out (peer not draining)");
  if (hasPayload) {
    // Once the header is queued the payload frame follows at once (zmq queues a
    // multipart message atomically), so this cannot time out half-way.
    (void)checked("send payload to", endpoint_, [&] { return zmqSend(s, payload, zmq::send_flags::none); });
  }
}

std::chrono::milliseconds PeerSender::linger() {
  std::lock_guard lock(mutex_);
  return std::chrono::milliseconds(socket_.raw().get(zmq::sockopt::linger));
}

void PeerSender::close() {
  std::lock_guard lock(mutex_);
  socket_.close();
}

}  // namespace zmpi::transport
