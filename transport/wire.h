#pragma once
// The wire message: one fixed-size binary header frame, then zero or one payload frame.
// The header carries no pointers and no variable-length fields, so decoding is a bounds
// check and a memcpy; the payload is a raw zmq frame (zero-copy for large buffers), never
// wrapped in protobuf. The layer above (mpi/) owns the meaning of `kind` and of the
// opaque `envelope` bytes; the transport only validates the frame structure.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <zmq.hpp>

#include "transport/payload_pool.h"

namespace zmpi::transport {

inline constexpr uint32_t kWireMagic = 0x49504d5a;  // "ZMPI" little-endian
inline constexpr uint16_t kWireVersion = 1;
inline constexpr size_t kEnvelopeBytes = 48;
// A message whose envelope is zero past this many bytes may travel compact on the
// same-host path (only this part of the envelope is written; see ShmOutbox).
inline constexpr size_t kCompactEnvelopeBytes = kEnvelopeBytes / 2;
// Payloads beyond this are refused before anything is allocated for them.
inline constexpr uint64_t kMaxPayloadBytes = uint64_t{1} << 36;  // 64 GiB

// Kinds at and above this value are reserved for the transport's own messages.
inline constexpr uint16_t kReservedKindBase = 0xff00;
// The reply a MessageServer sends instead of a handler's reply when the request was
// malformed or the handler threw; the payload is the error text. It is always sent, so
// a REQ peer is never left waiting for an answer that will not come.
inline constexpr uint16_t kErrorReplyKind = 0xfffe;

struct WireHeader {
  uint32_t magic = kWireMagic;
  uint16_t version = kWireVersion;
  uint16_t kind = 0;
  uint64_t jobHash = 0;       // messages for another job are rejected
  uint64_t payloadBytes = 0;  // must equal the payload frame's size
  std::array<uint8_t, kEnvelopeBytes> envelope{};
};
static_assert(sizeof(WireHeader) == 72, "wire header layout is part of the protocol");

struct WireMessage {
  WireHeader header;
  zmq::message_t payload;  // owned; empty when header.payloadBytes == 0, placed or borrowed
  // The same-host path wrote the header.payloadBytes bytes straight into the buffer its
  // receiver named for them (ShmInbox::Placement); `payload` is empty.
  bool placed = false;
  // Non-null when the header.payloadBytes bytes are lent where they arrived (a same-host
  // ring) instead of owned: valid only until the handler they are given to returns, and
  // `payload` is empty. A view costs nothing; a zmq::message_t around them cost ~80
  // instructions per message in libzmq calls. own() keeps a copy.
  const uint8_t* borrowed = nullptr;

  const void* data() const { return borrowed != nullptr ? borrowed : payload.data(); }
  std::size_t size() const { return borrowed != nullptr ? header.payloadBytes : payload.size(); }
  // Makes the payload owned: a borrowed one is copied.
  void own() {
    if (borrowed == nullptr) return;
    payload = PayloadPool::copyOf(borrowed, header.payloadBytes);
    borrowed = nullptr;
  }
};

// A small message as a same-host ring holds it (ShmOutbox::trySendCompact): its kind, the
// first kCompactEnvelopeBytes of its envelope (the rest are zeros) and its payload, all lent
// where they lie until the handler they are given to returns. Handed over as is, not as a
// WireMessage: building the 72-byte header and the empty zmq::message_t (and closing it)
// were a quarter of the receiving side's work for a small message.
struct CompactMessage {
  uint16_t kind;
  const uint8_t* envelope;
  const uint8_t* payload;
  std::size_t bytes;
};

// The general form of a compact message, for handlers that take only WireMessages: the
// payload stays lent.
WireMessage wireMessageOf(const CompactMessage& message, uint64_t jobHash);

// Builds a payload frame. Copies small buffers; large ones (>= zeroCopyThreshold) are
// referenced in place and `release(hint)` is called from a zmq thread once zmq no longer
// needs them. `release` may be null only for copied buffers.
using ReleaseFn = void (*)(void* data, void* hint);
zmq::message_t makePayload(const void* data, size_t bytes);
zmq::message_t makeZeroCopyPayload(void* data, size_t bytes, ReleaseFn release, void* hint);

// Decodes and validates the frames of one received message: exactly one header frame of
// sizeof(WireHeader), matching magic/version/job, and a payload frame iff payloadBytes > 0
// whose size matches. Throws MalformedMessage naming what was wrong.
WireMessage decodeFrames(zmq::message_t&& headerFrame, std::optional<zmq::message_t>&& payloadFrame,
                         bool moreAfterPayload, uint64_t expectedJobHash);

// A stable 64-bit hash of a job id string (FNV-1a); jobs tag every header with it.
uint64_t jobHashOf(const std::string& jobId);

}  // namespace zmpi::transport
