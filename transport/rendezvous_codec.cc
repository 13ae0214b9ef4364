#include "transport/rendezvous_codec.h"

#include <cstring>

#include "transport/errors.h"

namespace zmpi::transport {

WireHeader makeRendezvousHeader(uint16_t kind, uint64_t jobHash, const RendezvousEnvelope& envelope,
                                size_t payloadBytes) {
  WireHeader header;
  header.kind = kind;
  header.jobHash = jobHash;
  header.payloadBytes = payloadBytes;
  std::memcpy(header.envelope.data(), &envelope, sizeof envelope);
  return header;
}

RendezvousEnvelope rendezvousEnvelopeOf(const WireHeader& header) {
  RendezvousEnvelope envelope;
  std::memcpy(&envelope, header.envelope.data(), sizeof envelope);
  return envelope;
}

RendezvousRequest decodeRendezvousRequest(std::vector<zmq::message_t>&& frames, uint64_t jobHash, int participants) {
  if (frames.empty() || frames.size() > 2) {
    throw MalformedMessage(std::to_string(frames.size()) + " frames after the identity, expected 1 or 2");
  }
  std::optional<zmq::message_t> payload;
  if (frames.size() == 2) payload = std::move(frames[1]);
  WireMessage message = decodeFrames(std::move(frames[0]), std::move(payload), false, jobHash);
  RendezvousRequest request;
  request.kind = message.header.kind;
  request.envelope = rendezvousEnvelopeOf(message.header);
  const RendezvousEnvelope& envelope = request.envelope;
  if (envelope.participant < 0 || envelope.participant >= participants) {
    throw MalformedMessage("participant index " + std::to_string(envelope.participant) + " (job has " +
                           std::to_string(participants) + ")");
  }
  if (request.kind == kRendezvousHello) {
    if (envelope.participants != participants) {
      throw MalformedMessage("participant " + std::to_string(envelope.participant) + " believes the job has " +
                             std::to_string(envelope.participants) + " participants, not " +
                             std::to_string(participants));
    }
    if (message.payload.size() > kMaxRendezvousBlobBytes) {
      throw MalformedMessage("hello of " + std::to_string(message.payload.size()) + " bytes exceeds the limit of " +
                             std::to_string(kMaxRendezvousBlobBytes));
    }
    request.blob = message.payload.to_string();
  } else if (request.kind == kRendezvousEvent) {
    if (message.payload.size() != 0) throw MalformedMessage("event with a payload");
  } else {
    throw MalformedMessage("unknown message kind " + std::to_string(request.kind));
  }
  return request;
}

std::string encodeRendezvousTable(const std::vector<std::string>& blobs) {
  std::string out;
  for (const auto& blob : blobs) {
    auto size = static_cast<uint32_t>(blob.size());
    out.append(reinterpret_cast<const char*>(&size), sizeof size);
    out.append(blob);
  }
  return out;
}

std::vector<std::string> decodeRendezvousTable(const void* bytes, size_t size, int expected) {
  std::vector<std::string> blobs;
  const char* p = static_cast<const char*>(bytes);
  size_t left = size;
  while (left >= sizeof(uint32_t)) {
    if (static_cast<int>(blobs.size()) == expected) break;
    uint32_t blobSize;
    std::memcpy(&blobSize, p, sizeof blobSize);
    p += sizeof blobSize;
    left -= sizeof blobSize;
    if (blobSize > left) throw MalformedMessage("rendezvous table truncated");
    if (blobSize > kMaxRendezvousBlobBytes) throw MalformedMessage("rendezvous table entry exceeds the blob limit");
    blobs.emplace_back(p, blobSize);
    p += blobSize;
    left -= blobSize;
  }
  if (left != 0 || static_cast<int>(blobs.size()) != expected) {
    throw MalformedMessage("rendezvous table has " + std::to_string(blobs.size()) + (left != 0 ? "+" : "") +
                           " entries, expected " + std::to_string(expected));
  }
  return blobs;
}

std::vector<std::string> decodeRendezvousReply(std::vector<zmq::message_t>&& frames, uint64_t jobHash, int participants,
                                               const std::string& server) {
  if (frames.size() != 2) throw MalformedMessage("rendezvous reply with " + std::to_string(frames.size()) + " frames");
  std::optional<zmq::message_t> payload(std::move(frames[1]));
  WireMessage reply = decodeFrames(std::move(frames[0]), std::move(payload), false, jobHash);
  if (reply.header.kind == kRendezvousError) {
    throw TransportError("rendezvous at " + server + ": " + reply.payload.to_string().substr(0, 4096));
  }
  if (reply.header.kind != kRendezvousTable) {
    throw MalformedMessage("unexpected rendezvous reply kind " + std::to_string(reply.header.kind));
  }
  return decodeRendezvousTable(reply.payload.data(), reply.payload.size(), participants);
}

int64_t rendezvousServerMaxFrame() { return static_cast<int64_t>(kMaxRendezvousBlobBytes); }

int64_t rendezvousClientMaxFrame(int participants) {
  const int64_t count = std::max(1, std::min(participants, kMaxRendezvousParticipants));
  return count * static_cast<int64_t>(kMaxRendezvousBlobBytes + sizeof(uint32_t));
}

}  // namespace zmpi::transport
