#pragma once
// What a rank accepts from the network about its peers: the rendezvous table (one
// PeerInfo per rank) and, for every data message, a plausible sender. Both are checked
// before anything uses them, so a malformed or hostile table or message fails MPI_Init
// or is dropped, never indexes out of range. The fuzz target tests/mpi/fuzz drives these.
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi/core/envelope.h"

namespace zmpi::mpi {

struct PeerAddress {
  std::string host;
  std::string tcpEndpoint;
  std::string ipcEndpoint;  // empty when the peer has none
  std::string shmName;      // empty when the peer has no shared-memory mailbox
  int pid = 0;
  std::string dataHost;  // the bulk data listener; empty when the peer has none
  uint16_t dataPort = 0;
  uint64_t pidNamespace = 0;  // transport::pidNamespace(); 0: unknown
};

class PeerTableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One serialized PeerInfo per rank, in rank order; throws PeerTableError naming the entry.
std::vector<PeerAddress> decodePeerTable(const std::vector<std::string>& blobs, int worldSize);

// Why a message from the network must be dropped, or empty if it may go to the engine:
// every reply (Cts, SyncAck, one-sided replies) goes to envelope.senderWorld, so it
// must name a rank of this world.
std::string implausibleMessage(const transport::WireHeader& header, int worldSize);
// The same check without the reason: true if implausibleMessage would return empty. Every
// delivered message takes it, so it reads the one field in place.
// `envelope` is an encoded Envelope, whole or its compact first half.
inline bool plausibleEnvelope(const uint8_t* envelope, int worldSize) {
  static_assert(offsetof(Envelope, senderWorld) + sizeof(int32_t) <= transport::kCompactEnvelopeBytes);
  int32_t sender;
  std::memcpy(&sender, envelope + offsetof(Envelope, senderWorld), sizeof sender);
  return sender >= 0 && sender < worldSize;
}
inline bool plausibleMessage(const transport::WireHeader& header, int worldSize) {
  return plausibleEnvelope(header.envelope.data(), worldSize);
}

}  // namespace zmpi::mpi
