#include "transport/frames.h"

#include "transport/errors.h"
#include "transport/tsan_annotations.h"

namespace zmpi::transport {

std::optional<std::vector<zmq::message_t>> receiveFrames(zmq::socket_t& socket, const std::string& peer) {
  std::vector<zmq::message_t> frames;
  zmq::message_t first;
  if (!checked("receive on", peer, [&] { return zmqRecv(socket, first, zmq::recv_flags::dontwait); })) {
    return std::nullopt;
  }
  bool more = first.more();
  frames.push_back(std::move(first));
  while (more) {
    zmq::message_t next;
    (void)checked("receive frame on", peer, [&] { return zmqRecv(socket, next, zmq::recv_flags::none); });
    more = next.more();
    frames.push_back(std::move(next));
  }
  return frames;
}

WireMessage decodeMessage(std::vector<zmq::message_t>&& frames, uint64_t expectedJobHash) {
  if (frames.empty()) throw MalformedMessage("message without frames");
  std::optional<zmq::message_t> payload;
  if (frames.size() >= 2) payload = std::move(frames[1]);
  return decodeFrames(std::move(frames[0]), std::move(payload), frames.size() > 2, expectedJobHash);
}

bool sendMessage(zmq::socket_t& socket, const std::string& peer, WireHeader header, zmq::message_t&& payload,
                 zmq::send_flags flags) {
  header.payloadBytes = payload.size();
  const bool hasPayload = header.payloadBytes > 0;
  zmq::message_t headerFrame(&header, sizeof header);
  auto sent = checked("send header to", peer, [&] {
    return zmqSend(socket, headerFrame, hasPayload ? (flags | zmq::send_flags::sndmore) : flags);
  });
  if (!sent) return false;
  if (hasPayload) {
    // The first frame is queued, so zmq accepts the rest of the multipart message
    // without blocking: this cannot fail half-way for want of room.
    (void)checked("send payload to", peer, [&] { return zmqSend(socket, payload, flags); });
  }
  return true;
}

}  // namespace zmpi::transport
