#pragma once
// The real network. Each rank has a zmq Inbox (tcp for remote peers, ipc for same-host
// ones) and, unless disabled, a shared-memory mailbox for peers on its host. The path to
// each peer is chosen once, per pair, in order of preference (NCCL-style): shared memory
// if both ranks are on the same host and have mailboxes, then ipc, then tcp.
// ZMPI_TRANSPORT=tcp|ipc|shm caps the choice (tcp: everything over tcp, for testing and
// benchmarking). Messages to self go through an in-memory loopback queue.
#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mpi/core/fabric.h"
#include "mpi/core/order_gate.h"
#include "mpi/core/peer_table.h"
#include "transport/bulk_link.h"
#include "transport/inbox.h"
#include "transport/peer_sender.h"
#include "transport/shm_mailbox.h"

namespace zmpi::mpi {

class ZmqFabric : public Fabric {
 public:
  // With `linkKeys`, the inboxes accept only the job's clients and every sender proves the
  // credentials (the process enrols them in a transport::ZapAuthenticator); shared memory
  // is unchanged.
  ZmqFabric(uint64_t jobHash, int rank, int size, std::shared_ptr<const transport::LinkKeys> linkKeys = nullptr);
  ~ZmqFabric() override;

  // Binds this rank's endpoints and creates its mailbox, all before anyone learns of them.
  PeerAddress bind(const std::string& host, const std::string& bindAddress, const std::string& jobId);
  void setPeers(std::vector<PeerAddress> peers);
  // Maps the mailboxes of every same-host peer now, so that after a barrier each rank can
  // unlink its own mailbox's name (a crash later leaves nothing in /dev/shm).
  void attachSameHostPeers();
  void unlinkMailboxName();
  // "self", "shm", "ipc" or "tcp": the path to `worldRank` (debug logs and tests).
  std::string pathTo(int worldRank) const;
  // How long closing may wait for messages still queued to `worldRank` (tests).
  std::chrono::milliseconds closingLingerTo(int worldRank) { return senderFor(worldRank).linger(); }

  void send(int worldRank, const transport::WireHeader& header, zmq::message_t&& payload) override;
  void sendBytes(int worldRank, const transport::WireHeader& header, const void* data, std::size_t bytes) override;
  bool trySendCompact(int worldRank, uint16_t kind, const void* envelope, const void* data, std::size_t bytes) override;
  std::optional<transport::WireMessage> receive(std::chrono::milliseconds timeout) override;
  // Over tcp and ipc: ZMPI_TCP_EAGER_LIMIT if set, else kBulkEagerLimit to a peer the
  // bulk connection serves (its rendezvous costs less than a large eager message through
  // zmq) and kZmqEagerLimit to one it does not (there the handshake is a zmq round trip,
  // tens of microseconds, more than copying the payload up to that size). Shared memory
  // and self keep `fallback`.
  std::size_t eagerLimit(int worldRank, std::size_t fallback) const override;
  // ZMPI_TCP_PIECE_BYTES over tcp and ipc; shared memory and self: 0 (whole).
  std::size_t dataPieceBytes(int worldRank) const override;
  // Some peer is reached over tcp or ipc (known once setPeers ran).
  bool hasThreadedPeers() const override;
  // Over tcp or ipc, unless the bulk connection carries them (ZMPI_BULK_SMALL).
  bool smallMessagesOnInbox(int worldRank) const override;
  bool hasFastPeers() const override;
  bool isFastPeer(int worldRank) const override;
  // Same-host (shared-memory) peers in this pid namespace, with ZMPI_SINGLE_COPY=1.
  int singleCopyPid(int worldRank) const override;
  int hostPeerPid(int worldRank) const override;
  void singleCopyRefused(int worldRank, int error) override;
  // Over tcp and ipc, when the job's links are authenticated but not encrypted (encrypted
  // jobs keep their data on CURVE), unless ZMPI_TCP_BULK=0: a BulkLink connection.
  bool sendBulk(int worldRank, const transport::WireHeader& header, const void* data, std::size_t bytes,
                std::function<void()> done) override;
  bool prepareBulk(int worldRank) override;
  void startBulk(std::function<void(transport::WireMessage&&)> deliver,
                 std::function<void(const std::string& why)> failed) override;
  void wake() override { inbox_.wake(); }
  // Only where small messages take the bulk connections too (ZMPI_BULK_SMALL): else they
  // come through the inbox, which a waiter receives from itself (Engine::receiveUntil).
  bool readsBulkInWait() const override { return bulk_ != nullptr && smallOnBulk_ && !hasFastPeers(); }
  bool readBulkInWait(std::chrono::milliseconds timeout) override {
    if (!bulk_) return false;
    const auto read = bulk_->readAsWaiter(timeout);
    return read.frames > 0 || read.bytes > 0 || read.midFrame;
  }
  void wakeBulkReader() override {
    if (bulk_) bulk_->wakeWaiter();
  }
  void releaseBulk() override {
    if (bulk_) bulk_->releaseToThread();
  }
  void close() override;

  std::size_t pollFast(transport::FunctionRef<void(transport::WireMessage&&)> deliver,
                       transport::FunctionRef<void(const transport::CompactMessage&)> deliverCompact) override;
  void enterPolling() override;
  void leavePolling() override;
  bool hasFastData() override;
  // Every peer but ourselves through shared memory (none over tcp or ipc): nothing a wait
  // needs comes only through the progress thread but self messages and the launcher's.
  bool canSleepOnRings() const override;
  void beginRingSleep() override { shmInbox_->beginSleep(); }
  void ringSleep(std::chrono::nanoseconds timeout) override { shmInbox_->sleep(timeout); }
  void endRingSleep() override { shmInbox_->endSleep(); }
  void wakeRingSleepers() override {
    if (shmInbox_) shmInbox_->wakeSleepers();
  }
  bool flushQueued() override;
  bool hasQueued() override;
  void setPlacement(const Placement& placement) override;
  // Same-host peers: through the credit counters of the shared-memory rings.
  bool publishConsumed(int worldRank, uint64_t total) override;
  bool peerConsumed(int worldRank, uint64_t& total) override;

  // Messages dropped: malformed or for another job (the inbox), or naming a sender that
  // is not a rank of this world.
  uint64_t rejectedCount() const { return inbox_.rejectedCount() + implausible_.load(); }
  // Rendezvous payloads sent over bulk data connections.
  uint64_t bulkFramesSent() const { return bulk_ ? bulk_->framesSent() : 0; }
  uint64_t bulkFramesReadInWait() const { return bulk_ ? bulk_->framesReadByWaiters() : 0; }
  // Doorbells rung on same-host peers (zmq messages), and our threads asleep on our rings.
  uint64_t doorbellsRung() const { return doorbellsRung_.load(std::memory_order_relaxed); }
  uint32_t ringSleepers() const { return shmInbox_ ? shmInbox_->sleepers() : 0; }
  // Numbered messages that arrived before a predecessor (on the other channel) and waited
  // (logged at debug level when the fabric closes).
  uint64_t outOfOrderCount();

 private:
  enum class Path { Self, Shm, Ipc, Tcp };
  // The matching order of one sender's messages when they take two channels (zmq and the
  // bulk connection, which carries Rts and, with ZMPI_BULK_SMALL, small messages too -- but
  // not before it is connected, nor from a thread that may not connect it): every Eager,
  // EagerSync and Rts to a peer with
  // a bulk listener gets the next number of the pair (in the envelope's `offset`, unused
  // by these kinds), and the receiver hands them to the engine in that order, whichever
  // thread (progress, bulk I/O) received them.
  Path choosePath(int worldRank) const;
  // Both ends have bulk listeners and reach each other over tcp or ipc: messages between
  // them are numbered (the same answer on both ends: from the address table).
  bool ordered(int worldRank) const { return !ordered_.empty() && ordered_[static_cast<std::size_t>(worldRank)] != 0; }
  // Numbers a matchable message to an ordered peer; other headers unchanged.
  transport::WireHeader numbered(int worldRank, const transport::WireHeader& header);
  // Hands a message from an ordered peer to the engine in its sender's order (a numbered
  // one may wait for its predecessors, then whoever delivers those delivers it).
  void deliverInOrder(int peer, transport::WireMessage&& message);
  bool plausible(const transport::WireMessage& message);
  transport::PeerSender& senderFor(int worldRank);
  transport::ShmOutbox& outboxFor(int worldRank);
  void ringDoorbell(int worldRank);
  [[noreturn]] void failSend(int worldRank, const char* why) const;
  // Writes to a same-host peer's ring; false if that is not the path to `worldRank`.
  bool sendShm(int worldRank, const transport::WireHeader& header, const void* data, std::size_t bytes);
  // Over tcp or ipc: on the bulk connection where the kind goes there, else on zmq (the
  // `payload` frame if given, else a copy of `data`).
  void sendNetwork(int worldRank, const transport::WireHeader& header, const void* data, std::size_t bytes,
                   zmq::message_t* payload);
  // The same for a frame the ring keeps until its last byte is written (no copy of what
  // must wait: a zero-copy frame's release completes its send then).
  void sendShmFrame(int worldRank, const transport::WireHeader& header, zmq::message_t&& payload);
  // Runs `write` (true: ring the doorbell) on the outbox to `worldRank`, then makes sure
  // our progress thread looks if part of it had to wait.
  template <typename Write>
  void writeShm(int worldRank, Write&& write);

  uint64_t jobHash_;
  std::shared_ptr<const transport::LinkKeys> linkKeys_;
  int rank_;
  int size_;
  std::string myHost_;
  // Writes what every outbox holds queued, as far as the rings have room; `progressed`
  // says whether anything went in. Returns whether some is still queued.
  bool flushOutboxes(bool& progressed);
  std::string ipcPath_;
  std::string maxPath_;  // ZMPI_TRANSPORT
  // The tcp/ipc eager limits: where a bulk connection carries rendezvous data, a rendezvous
  // beats eager copies from 32 KiB (exchanges most: both sides' eager windows fill); over
  // zmq alone a rendezvous round trip costs more than copying up to 512 KiB
  // (bench/HISTORY.md, "Eager limits over tcp").
  static constexpr std::size_t kBulkEagerLimit = 32 * 1024;
  static constexpr std::size_t kZmqEagerLimit = 512 * 1024;
  std::optional<std::size_t> zmqEagerLimit_;  // ZMPI_TCP_EAGER_LIMIT, if set
  std::size_t zmqPieceBytes_;                 // ZMPI_TCP_PIECE_BYTES
  bool singleCopy_;                           // ZMPI_SINGLE_COPY (default 0: off)
  // Small messages to ordered peers take the bulk connection (ZMPI_BULK_SMALL, default 1).
  bool smallOnBulk_;
  uint64_t pidNamespace_ = 0;  // ours (bind)
  // Per peer, set in setPeers: its large messages may be read from its memory (cleared
  // when the kernel refuses, from whichever thread matched the message).
  std::unique_ptr<std::atomic<bool>[]> readable_;
  transport::Inbox inbox_;
  std::unique_ptr<transport::BulkLink> bulk_;  // null: no bulk data connections
  Placement placement_;
  std::unique_ptr<transport::ShmInbox> shmInbox_;
  std::vector<PeerAddress> peers_;
  std::vector<Path> paths_;
  std::mutex sendersMutex_;
  std::vector<std::unique_ptr<transport::PeerSender>> senders_;
  std::vector<std::unique_ptr<transport::ShmOutbox>> outboxes_;
  // outboxes_[r].get() once created, read without sendersMutex_ on the send path (an
  // outbox lives until close(), after the last send).
  std::unique_ptr<std::atomic<transport::ShmOutbox*>[]> readyOutboxes_;
  // Set when a send left fragments queued for a full ring, cleared by the poll that finds
  // none left (see pollFast): a waiting thread looks at the outboxes only after such a send.
  std::atomic<bool> fragmentsQueued_{false};
  std::mutex loopbackMutex_;
  std::deque<transport::WireMessage> loopback_;
  std::atomic<uint64_t> implausible_{0};
  std::atomic<uint64_t> doorbellsRung_{0};
  std::vector<char> ordered_;                              // per peer; set in setPeers
  std::unique_ptr<std::atomic<uint64_t>[]> sendNumber_;    // the last number sent, per peer
  std::unique_ptr<OrderGate[]> gates_;                     // per sender
  std::function<void(transport::WireMessage&&)> deliver_;  // the engine's (startBulk)
};

}  // namespace zmpi::mpi
