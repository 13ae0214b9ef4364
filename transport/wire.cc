#include "transport/wire.h"

#include <cstring>

#include "transport/errors.h"
#include "transport/tsan_annotations.h"

namespace zmpi::transport {

zmq::message_t makePayload(const void* data, size_t bytes) { return zmq::message_t(data, bytes); }

WireMessage wireMessageOf(const CompactMessage& message, uint64_t jobHash) {
  WireHeader header;
  header.kind = message.kind;
  header.jobHash = jobHash;
  header.payloadBytes = message.bytes;
  std::memcpy(header.envelope.data(), message.envelope, kCompactEnvelopeBytes);
  return WireMessage{header, {}, false, message.payload};
}

zmq::message_t makeZeroCopyPayload(void* data, size_t bytes, ReleaseFn release, void* hint) {
#if defined(ZMPI_TSAN)
  // zmq may call `release` on its I/O thread: bracket it for TSan (tsan_annotations.h).
  // Only TSan builds pay for the wrapper.
  struct Release {
    ReleaseFn release;
    void* hint;
  };
  return zmq::message_t(
      data, bytes,
      [](void* buffer, void* wrapped) {
        tsan::FreeFunctionScope scope;
        const Release callback = *static_cast<Release*>(wrapped);
        delete static_cast<Release*>(wrapped);
        callback.release(buffer, callback.hint);
      },
      new Release{release, hint});
#else
  return zmq::message_t(data, bytes, release, hint);
#endif
}

WireMessage decodeFrames(zmq::message_t&& headerFrame, std::optional<zmq::message_t>&& payloadFrame,
                         bool moreAfterPayload, uint64_t expectedJobHash) {
  if (headerFrame.size() != sizeof(WireHeader)) {
    throw MalformedMessage("header frame has " + std::to_string(headerFrame.size()) + " bytes, expected " +
                           std::to_string(sizeof(WireHeader)));
  }
  WireMessage message;
  std::memcpy(&message.header, headerFrame.data(), sizeof(WireHeader));
  const WireHeader& h = message.header;
  if (h.magic != kWireMagic) throw MalformedMessage("bad magic in header");
  if (h.version != kWireVersion) {
    throw MalformedMessage("protocol version " + std::to_string(h.version) + ", expected " +
                           std::to_string(kWireVersion));
  }
  if (expectedJobHash != 0 && h.jobHash != expectedJobHash) throw MalformedMessage("message for another job");
  if (h.payloadBytes > kMaxPayloadBytes) {
    throw MalformedMessage("declared payload of " + std::to_string(h.payloadBytes) + " bytes exceeds the limit");
  }
  if (moreAfterPayload) throw MalformedMessage("unexpected extra frames after payload");
  if (h.payloadBytes == 0) {
    if (payloadFrame && payloadFrame->size() != 0) throw MalformedMessage("payload frame present but declared empty");
    return message;
  }
  if (!payloadFrame) throw MalformedMessage("missing payload frame");
  if (payloadFrame->size() != h.payloadBytes) {
    throw MalformedMessage("payload frame has " + std::to_string(payloadFrame->size()) + " bytes, header declares " +
                           std::to_string(h.payloadBytes));
  }
  message.payload = std::move(*payloadFrame);
  return message;
}

uint64_t jobHashOf(const std::string& jobId) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : jobId) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash == 0 ? 1 : hash;
}

}  // namespace zmpi::transport
