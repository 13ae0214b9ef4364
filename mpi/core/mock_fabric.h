#pragma once
// Mock mode: a world flag under which messages never touch the network. Every send is
// recorded (who, to whom, what, in order) and delivered through in-process queues, so
// N worlds running as threads in one test process complete real collectives while the
// test asserts exactly the message pattern an algorithm produced.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "mpi/core/envelope.h"
#include "mpi/core/fabric.h"

namespace zmpi::mpi {

struct SentRecord {
  int from;
  int to;
  MessageKind kind;
  Envelope envelope;
  uint64_t payloadBytes;
};

class MockNetwork {
 public:
  explicit MockNetwork(int size);

  int size() const { return static_cast<int>(queues_.size()); }
  // Every message sent so far, in the order the sends happened.
  std::vector<SentRecord> sent() const;
  // Only the messages one rank sent, in its order.
  std::vector<SentRecord> sentBy(int rank) const;
  void clearRecords();
  // Messages up to this size go eagerly between ranks (0: the engine's own limit), as a
  // fabric whose path has an expensive round trip asks. Set before the worlds start.
  void setEagerLimit(std::size_t bytes) { eagerLimit_ = bytes; }
  std::size_t eagerLimit() const { return eagerLimit_; }
  // Rendezvous data between ranks goes in pieces of this size (0: whole), as over zmq. Set
  // before the worlds start.
  void setDataPieceBytes(std::size_t bytes) { dataPieceBytes_ = bytes; }
  std::size_t dataPieceBytes() const { return dataPieceBytes_; }
  // Large messages between ranks are read from process `pid` as from a same-host peer
  // (Fabric::singleCopyPid; 0: never). All ranks are threads of this process, so its own
  // pid reads each sender's buffer; a pid the kernel refuses exercises the fallback. Set
  // before the worlds start.
  void setSingleCopyPid(int pid) { singleCopyPid_ = pid; }
  int singleCopyPid() const { return singleCopyPid_; }
  // Ranks reach each other as through the same-host rings (Fabric::isFastPeer), for the
  // choices made by path (coll::segmentBytes). Set before the worlds start.
  void setRingPeers(bool rings) { ringPeers_ = rings; }
  bool ringPeers() const { return ringPeers_; }
  // Each rank on a host of its own ("mock-<rank>") instead of all on "mock": what depends on
  // sharing a host (one-sided locks in shared memory) takes its message path. Set before
  // the worlds start.
  void setHostPerRank(bool separate) { hostPerRank_ = separate; }
  bool hostPerRank() const { return hostPerRank_; }
  // How many direct reads the kernel refused, over all ranks.
  void noteSingleCopyRefused() { singleCopyRefusals_.fetch_add(1, std::memory_order_relaxed); }
  int singleCopyRefusals() const { return singleCopyRefusals_.load(std::memory_order_relaxed); }

  void deliver(int from, int to, const transport::WireHeader& header, zmq::message_t&& payload);
  std::optional<transport::WireMessage> take(int rank, std::chrono::milliseconds timeout);
  void wake(int rank);

 private:
  struct Queue {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<transport::WireMessage> messages;
    bool woken = false;
  };
  mutable std::mutex recordMutex_;
  std::vector<SentRecord> records_;
  std::vector<std::unique_ptr<Queue>> queues_;
  std::size_t eagerLimit_ = 0;
  std::size_t dataPieceBytes_ = 0;
  int singleCopyPid_ = 0;
  bool ringPeers_ = false;
  bool hostPerRank_ = false;
  std::atomic<int> singleCopyRefusals_{0};
};

class MockFabric : public Fabric {
 public:
  MockFabric(std::shared_ptr<MockNetwork> network, int rank)
      : network_(std::move(network)),
        rank_(rank),
        refused_(std::make_unique<std::atomic<bool>[]>(static_cast<std::size_t>(network_->size()))) {}
  void send(int worldRank, const transport::WireHeader& header, zmq::message_t&& payload) override {
    network_->deliver(rank_, worldRank, header, std::move(payload));
  }
  std::optional<transport::WireMessage> receive(std::chrono::milliseconds timeout) override {
    return network_->take(rank_, timeout);
  }
  std::size_t eagerLimit(int worldRank, std::size_t fallback) const override {
    return worldRank == rank_ || network_->eagerLimit() == 0 ? fallback : network_->eagerLimit();
  }
  std::size_t dataPieceBytes(int worldRank) const override {
    return worldRank == rank_ ? 0 : network_->dataPieceBytes();
  }
  bool isFastPeer(int worldRank) const override { return network_->ringPeers() && worldRank != rank_; }
  int singleCopyPid(int worldRank) const override {
    return worldRank == rank_ || refused_[static_cast<std::size_t>(worldRank)] ? 0 : network_->singleCopyPid();
  }
  // All ranks are threads of this process: the pid set for single copy stands for every peer.
  int hostPeerPid(int worldRank) const override { return network_->singleCopyPid(); }
  void singleCopyRefused(int worldRank, int) override {
    refused_[static_cast<std::size_t>(worldRank)].store(true);
    network_->noteSingleCopyRefused();  // every refusal: a test sees whether a rank tried again
  }
  void wake() override { network_->wake(rank_); }
  void close() override {}

 private:
  std::shared_ptr<MockNetwork> network_;
  int rank_;
  std::unique_ptr<std::atomic<bool>[]> refused_;  // per peer: singleCopyRefused
};

}  // namespace zmpi::mpi
