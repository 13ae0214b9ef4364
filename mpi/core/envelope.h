#pragma once
// The MPI envelope inside transport::WireHeader::envelope, and the message kinds of the
// point-to-point protocol:
//   Eager      small message, payload attached; matched on arrival or queued unexpected
//   EagerSync  as Eager, and the receiver sends SyncAck once a receive matched it (Ssend)
//   Rts        "ready to send" for a large message: envelope and size only
//   Cts        "clear to send": the matching receive was posted; carries both request ids
//   Data       the large payload, addressed to the receive request named in the Cts; in
//              pieces, each with its offset, if the Cts allows it and the path asks for it
//   SyncAck    completes a synchronous send
//   ReadDone   the receiver read the large payload of an Rts straight from the sender's
//              buffer (same host, single copy: the Rts's `offset` said where); completes
//              the send instead of a Cts and Data
//   Credit     eager flow control (eager_flow.h): totalBytes is how many eager payload
//              bytes from the addressee its sender (senderWorld) has consumed so far
// Large messages move only once the receiver has a buffer for them, and eager ones only
// within the pair's window (eager_flow.h), so a flooding sender cannot build an unbounded
// backlog in the receiver's memory.
#include <cstdint>
#include <cstring>

#include "transport/wire.h"

namespace zmpi::mpi {

// Doorbell carries nothing: it only wakes a receiver whose shared-memory rings got data.
enum class MessageKind : uint16_t {
  Eager = 1,
  EagerSync = 2,
  Rts = 3,
  Cts = 4,
  Data = 5,
  SyncAck = 6,
  Doorbell = 7,
  Credit = 8,
  ReadDone = 9
};

// The ids come last: an Eager message carries none, so the second half of its envelope is
// zero and the same-host ring writes it in compact form (one cache line for a small
// message; see ShmOutbox).
struct Envelope {
  int32_t context = 0;
  int32_t source = 0;  // sender's rank in the communicator
  int32_t tag = 0;
  int32_t senderWorld = 0;  // where replies (Cts, SyncAck) go
  uint64_t totalBytes = 0;
  uint64_t sendId = 0;  // set only when a reply must name the send (Rts, EagerSync)
  // Cts, Data: the receive. Rts: kStarvedRts if the message is within the eager limit and
  // goes by rendezvous only for want of eager credit (the receiver then returns what credit
  // it holds at once; eager_flow.h).
  uint64_t recvId = 0;
  // Data: where this piece of the message starts. Cts: nonzero if the receiver takes the
  // data in pieces (its buffer is contiguous, so each piece is copied where it belongs).
  // Rts to a same-host peer: the payload's address in the sender, which the receiver may
  // read directly (Fabric::singleCopyPid); 0: it may not.
  // (Between ordered tcp peers the fabric carries its message numbers here: ZmqFabric.)
  uint64_t offset = 0;
};
static_assert(sizeof(Envelope) <= transport::kEnvelopeBytes);
inline constexpr uint64_t kStarvedRts = 1;

inline transport::WireHeader makeHeader(MessageKind kind, uint64_t jobHash, const Envelope& envelope,
                                        uint64_t payloadBytes) {
  transport::WireHeader header;
  header.kind = static_cast<uint16_t>(kind);
  header.jobHash = jobHash;
  header.payloadBytes = payloadBytes;
  std::memcpy(header.envelope.data(), &envelope, sizeof envelope);
  return header;
}

inline Envelope envelopeOf(const transport::WireHeader& header) {
  Envelope envelope;
  std::memcpy(&envelope, header.envelope.data(), sizeof envelope);
  return envelope;
}

}  // namespace zmpi::mpi
