#include "mpi/core/peer_table.h"

#include "peer_info.pb.h"  // generated from core/peer_info.proto

namespace zmpi::mpi {
namespace {

constexpr std::size_t kMaxFieldBytes = 4096;  // host names, endpoints, shm names

void checkField(const std::string& value, const char* what, int rank) {
  if (value.size() > kMaxFieldBytes || value.find('\0') != std::string::npos) {
    throw PeerTableError(std::string("address entry of rank ") + std::to_string(rank) + ": bad " + what);
  }
}

}  // namespace

std::vector<PeerAddress> decodePeerTable(const std::vector<std::string>& blobs, int worldSize) {
  if (static_cast<int>(blobs.size()) != worldSize) {
    throw PeerTableError("address table has " + std::to_string(blobs.size()) + " entries for " +
                         std::to_string(worldSize) + " ranks");
  }
  std::vector<PeerAddress> peers(static_cast<size_t>(worldSize));
  for (int r = 0; r < worldSize; ++r) {
    proto::PeerInfo info;
    if (!info.ParseFromString(blobs[static_cast<size_t>(r)]) || info.rank() != r) {
      throw PeerTableError("malformed address entry for rank " + std::to_string(r));
    }
    checkField(info.host(), "host", r);
    checkField(info.tcp_endpoint(), "tcp endpoint", r);
    checkField(info.ipc_endpoint(), "ipc endpoint", r);
    checkField(info.shm_name(), "shared-memory name", r);
    checkField(info.data_host(), "data host", r);
    if (info.data_port() < 0 || info.data_port() > 65535) {
      throw PeerTableError("rank " + std::to_string(r) + " has a malformed data port");
    }
    if (!info.tcp_endpoint().starts_with("tcp://"))
      throw PeerTableError("rank " + std::to_string(r) + " has no tcp endpoint");
    if (!info.ipc_endpoint().empty() && !info.ipc_endpoint().starts_with("ipc://")) {
      throw PeerTableError("rank " + std::to_string(r) + " has a malformed ipc endpoint");
    }
    if (!info.shm_name().empty() && (info.shm_name()[0] != '/' || info.shm_name().find('/', 1) != std::string::npos)) {
      throw PeerTableError("rank " + std::to_string(r) + " has a malformed shared-memory name");
    }
    peers[static_cast<size_t>(r)] = {info.host(),
                                     info.tcp_endpoint(),
                                     info.ipc_endpoint(),
                                     info.shm_name(),
                                     info.pid(),
                                     info.data_host(),
                                     static_cast<uint16_t>(info.data_port()),
                                     info.pid_namespace()};
  }
  return peers;
}

std::string implausibleMessage(const transport::WireHeader& header, int worldSize) {
  const Envelope envelope = envelopeOf(header);
  if (!plausibleMessage(header, worldSize)) {
    return "sender " + std::to_string(envelope.senderWorld) + " is not a rank of this world of " +
           std::to_string(worldSize);
  }
  return {};
}

}  // namespace zmpi::mpi
