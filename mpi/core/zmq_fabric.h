#pragma once
// The real network: this rank's Inbox (bound to tcp for remote peers and ipc for peers on
// the same host) and one PeerSender per peer, connected on first use. Which endpoint a
// peer is reached on is chosen per pair: ipc when both ranks are on the same host, tcp
// otherwise. Messages to self go through an in-memory loopback queue.
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mpi/core/fabric.h"
#include "transport/inbox.h"
#include "transport/peer_sender.h"

namespace zmpi::mpi {

struct PeerAddress {
  std::string host;
  std::string tcpEndpoint;
  std::string ipcEndpoint;  // empty when the peer has none
  int pid = 0;
};

class ZmqFabric : public Fabric {
 public:
  ZmqFabric(uint64_t jobHash, int rank);
  ~ZmqFabric() override;

  // Binds this rank's endpoints: tcp on `bindAddress` (any port) and, for same-host
  // peers, an ipc endpoint named after the job and rank.
  PeerAddress bind(const std::string& host, const std::string& bindAddress, const std::string& jobId);
  void setPeers(std::vector<PeerAddress> peers);
  // "ipc" or "tcp": the path to `worldRank` (visible in debug logs and tests).
  std::string pathTo(int worldRank) const;

  void send(int worldRank, const transport::WireHeader& header, zmq::message_t&& payload) override;
  std::optional<transport::WireMessage> receive(std::chrono::milliseconds timeout) override;
  void wake() override { inbox_.wake(); }
  void close() override;
  uint64_t rejectedCount() const { return inbox_.rejectedCount(); }

 private:
  transport::PeerSender& senderFor(int worldRank);

  int rank_;
  std::string myHost_;
  std::string ipcPath_;
  transport::Inbox inbox_;
  std::vector<PeerAddress> peers_;
  std::mutex sendersMutex_;
  std::vector<std::unique_ptr<transport::PeerSender>> senders_;
  std::mutex loopbackMutex_;
  std::deque<transport::WireMessage> loopback_;
};

}  // namespace zmpi::mpi
