#pragma once
// The bytes of the rendezvous protocol (rendezvous.h), apart from the sockets: what a
// server accepts from a participant and what a participant accepts from the server. Kept
// separate so that the fuzz targets (tests/transport/fuzz) drive exactly the decoders the
// server and the client use. Every decoder bounds what it keeps: a blob is at most
// kMaxRendezvousBlobBytes, so N participants can never make a server hold more than
// N * kMaxRendezvousBlobBytes, whatever they declare.
#include <cstdint>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "transport/wire.h"

namespace zmpi::transport {

// Kinds used on the rendezvous connection (WireHeader::kind).
inline constexpr uint16_t kRendezvousHello = 0x100;
inline constexpr uint16_t kRendezvousTable = 0x101;
inline constexpr uint16_t kRendezvousError = 0x102;
inline constexpr uint16_t kRendezvousEvent = 0x103;
inline constexpr uint16_t kRendezvousEventAck = 0x104;

// A participant's blob (where it listens: a few hundred bytes in practice).
inline constexpr std::size_t kMaxRendezvousBlobBytes = 64 * 1024;
// The largest job the rendezvous accepts (bounds the table a client accepts).
inline constexpr int kMaxRendezvousParticipants = 1 << 20;

struct RendezvousEnvelope {
  int32_t participant = 0;
  int32_t participants = 0;
  int32_t event = 0;
  int32_t code = 0;
};
static_assert(sizeof(RendezvousEnvelope) <= kEnvelopeBytes);

WireHeader makeRendezvousHeader(uint16_t kind, uint64_t jobHash, const RendezvousEnvelope& envelope,
                                size_t payloadBytes);
RendezvousEnvelope rendezvousEnvelopeOf(const WireHeader& header);

// A message from a participant, validated: known kind, participant index in range, the
// participant count matching the job's (hello), blob within its limit.
struct RendezvousRequest {
  uint16_t kind = 0;  // kRendezvousHello or kRendezvousEvent
  RendezvousEnvelope envelope;
  std::string blob;  // hello only
};

// `frames` are what followed the ROUTER's identity frame. Throws MalformedMessage.
RendezvousRequest decodeRendezvousRequest(std::vector<zmq::message_t>&& frames, uint64_t jobHash, int participants);

// Table encoding: for each blob, a 4-byte length then the bytes.
std::string encodeRendezvousTable(const std::vector<std::string>& blobs);
// Throws MalformedMessage unless `bytes` holds exactly `expected` blobs, each within the
// blob limit.
std::vector<std::string> decodeRendezvousTable(const void* bytes, size_t size, int expected);

// The server's reply to a hello: the table (returned), or an error (thrown as
// TransportError with the server's text), or anything else (MalformedMessage).
std::vector<std::string> decodeRendezvousReply(std::vector<zmq::message_t>&& frames, uint64_t jobHash, int participants,
                                               const std::string& server);

// Frame size limits for the rendezvous sockets (ZMQ_MAXMSGSIZE): zmq refuses a larger
// frame before allocating it.
int64_t rendezvousServerMaxFrame();
int64_t rendezvousClientMaxFrame(int participants);

}  // namespace zmpi::transport
