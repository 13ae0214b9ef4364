#include "mpi/core/zmq_fabric.h"

#include <mpi.h>
#include <unistd.h>

#include "mpi/core/error.h"
#include "transport/errors.h"
#include "transport/log.h"

namespace zmpi::mpi {
namespace {
transport::SocketOptions dataSocketOptions() {
  transport::SocketOptions options;
  // Ordered streams must never drop: no high-water mark on the data path (large
  // messages are flow-controlled by the rendezvous protocol instead).
  options.sendHighWater = 0;
  options.receiveHighWater = 0;
  return options;
}
}  // namespace

ZmqFabric::ZmqFabric(uint64_t jobHash, int rank) : rank_(rank), inbox_(jobHash, dataSocketOptions()) {}

ZmqFabric::~ZmqFabric() { close(); }

PeerAddress ZmqFabric::bind(const std::string& host, const std::string& bindAddress, const std::string& jobId) {
  myHost_ = host;
  PeerAddress address;
  address.host = host;
  address.pid = getpid();
  address.tcpEndpoint = inbox_.bind("tcp://" + bindAddress + ":*");
  ipcPath_ = "/tmp/zmpi-" + jobId + "-" + std::to_string(rank_);
  try {
    address.ipcEndpoint = inbox_.bind("ipc://" + ipcPath_);
  } catch (const transport::TransportError& error) {
    // ipc is an optimisation; tcp always works.
    log::get("mpi")->debug("no ipc endpoint ({}); same-host peers will use tcp", error.what());
    ipcPath_.clear();
  }
  return address;
}

void ZmqFabric::setPeers(std::vector<PeerAddress> peers) {
  std::lock_guard lock(sendersMutex_);
  peers_ = std::move(peers);
  senders_.resize(peers_.size());
  auto logger = log::get("mpi");
  for (size_t r = 0; r < peers_.size(); ++r) {
    logger->debug("path to rank {} on host {}: {}", r, peers_[r].host, pathTo(static_cast<int>(r)));
  }
}

std::string ZmqFabric::pathTo(int worldRank) const {
  if (worldRank == rank_) return "self";
  const PeerAddress& peer = peers_.at(static_cast<size_t>(worldRank));
  return (peer.host == myHost_ && !peer.ipcEndpoint.empty()) ? "ipc" : "tcp";
}

transport::PeerSender& ZmqFabric::senderFor(int worldRank) {
  std::lock_guard lock(sendersMutex_);
  auto& sender = senders_.at(static_cast<size_t>(worldRank));
  if (!sender) {
    const PeerAddress& peer = peers_[static_cast<size_t>(worldRank)];
    const std::string endpoint = pathTo(worldRank) == "ipc" ? peer.ipcEndpoint : peer.tcpEndpoint;
    sender = std::make_unique<transport::PeerSender>(endpoint, dataSocketOptions());
  }
  return *sender;
}

void ZmqFabric::send(int worldRank, const transport::WireHeader& header, zmq::message_t&& payload) {
  if (worldRank == rank_) {
    std::lock_guard lock(loopbackMutex_);
    // Copy: the caller may reuse its buffer once send returns.
    loopback_.push_back({header, zmq::message_t(payload.data(), payload.size())});
    inbox_.wake();
    return;
  }
  try {
    senderFor(worldRank).send(header, std::move(payload));
  } catch (const transport::TransportError& error) {
    fail(MPI_ERR_OTHER, std::string("send to rank ") + std::to_string(worldRank) + ": " + error.what());
  }
}

std::optional<transport::WireMessage> ZmqFabric::receive(std::chrono::milliseconds timeout) {
  {
    std::lock_guard lock(loopbackMutex_);
    if (!loopback_.empty()) {
      transport::WireMessage message = std::move(loopback_.front());
      loopback_.pop_front();
      return message;
    }
  }
  return inbox_.receive(timeout);
}

void ZmqFabric::close() {
  std::lock_guard lock(sendersMutex_);
  for (auto& sender : senders_) {
    if (sender) sender->close();
  }
  senders_.clear();
  if (!ipcPath_.empty()) {
    ::unlink(ipcPath_.c_str());
    ipcPath_.clear();
  }
}

}  // namespace zmpi::mpi
