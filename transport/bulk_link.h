#pragma once
// Plain TCP connections for the bulk bytes of rendezvous messages (see transport/README.md,
// "Bulk data connections"). zmq always receives into buffers of its own and hands them over
// from its I/O thread; here the receiver reads a frame's payload with recv() straight into
// the buffer the receive posted, and the sender writes it with writev() from the user's
// buffer: one copy less and one thread hop less than the zmq path.
//
// Each process listens on one port; a sender connects lazily, on its first bulk frame to a
// peer, and both ends prove the job's key in a challenge-response (bulk_handshake.h) before
// either writes anything. The connection then carries both directions: the peer sends its
// frames back on it unless it had made one of its own first (so a reply carries the TCP
// acknowledgement of what it answers, as on Open MPI's one socket per pair). Every
// connection is read at both ends. One I/O thread per process accepts, authenticates and
// reads the connections and finishes writes the socket could not take at once; nothing of
// it blocks on a peer.
//
// A frame is a WireHeader (72 bytes, validated as on zmq) and header.payloadBytes bytes.
// What the bytes mean is the caller's (the mpi fabric): it says where each payload goes
// and receives the finished frames.
#include <poll.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "transport/bulk_handshake.h"
#include "transport/congestion.h"
#include "transport/wire.h"

namespace zmpi::transport {

class BulkLink {
 public:
  struct Handlers {
    // Where the payload of a frame from `peer` goes: a buffer of header.payloadBytes, or
    // null for a scratch buffer delivered as the message's payload. False refuses the
    // frame: the connection is dropped (a peer that names another sender, a kind that does
    // not travel here).
    std::function<bool(int peer, const WireHeader& header, void*& where)> place;
    // A complete frame (placed: its payload is in the buffer place() named; borrowed: it
    // lies in the connection's staging buffer until deliver returns -- own() keeps it).
    std::function<void(int peer, WireMessage&& message)> deliver;
    // A connection to or from `peer` broke with a frame half-way: bytes are lost.
    std::function<void(int peer, const std::string& why)> failed;
  };

  BulkLink(uint64_t jobHash, int rank, int worldSize, const bulk::Key& key);
  ~BulkLink();
  BulkLink(const BulkLink&) = delete;
  BulkLink& operator=(const BulkLink&) = delete;

  // Binds the listener on a numeric address, port chosen by the kernel; returns the port.
  // Throws TransportError.
  uint16_t listen(const std::string& address);
  // Where `peer` listens (from the address table); an empty host: it has no listener.
  void setPeer(int peer, const std::string& host, uint16_t port);
  // Starts the I/O thread; incoming data is handed to `handlers` from then on.
  void start(Handlers handlers);

  // Frames to one peer arrive in the order sent, except once per pair: when both ranks
  // connected to each other at once, the higher rank's frames move to the lower rank's
  // connection and may overtake those still on its own (the caller orders what must be;
  // the mpi fabric numbers its matching kinds).
  // Sends one frame to `peer`: the header, then `bytes` from `data`, which must stay valid
  // until `done` runs (on this thread if the socket takes everything at once, else on the
  // I/O thread). False, with nothing sent, if there is no usable connection to the peer
  // (none can be made: the caller takes another path; tried once per peer, then remembered).
  bool send(int peer, const WireHeader& header, const void* data, std::size_t bytes, std::function<void()> done);
  // The same for a small frame whose buffer the caller reuses at once: what the socket does
  // not take right away is copied (most small frames go out whole, uncopied).
  bool sendCopy(int peer, const WireHeader& header, const void* data, std::size_t bytes);

  // Makes the connection to `peer` now if there is none yet (the first send would);
  // whether there is one. Never connects on the I/O thread.
  bool prepare(int peer);

  // Reads on a waiting thread instead of the I/O thread (leader/follower, as the engine's
  // ReceiveLease does for the zmq inbox): polls the authenticated incoming connections for
  // up to `timeout` (zero: one look) and reads what came, delivering frames through the
  // handlers on this thread; wakeWaiter() (from any thread) ends the poll early. While a
  // thread reads here, and for kWaiterLinger after, the I/O thread leaves those connections
  // to it (a reply is likely to be waited for soon): a frame then crosses no thread
  // hand-off. Reads are serialised (a mutex), but the caller should let one thread at a
  // time wait here: the wake-up goes to one of them.
  static constexpr std::chrono::milliseconds kWaiterLinger{1};
  // Tests: a longer linger keeps the I/O thread away between a test's looks.
  void setWaiterLinger(std::chrono::milliseconds linger) { waiterLinger_ = linger; }
  struct WaiterRead {
    uint64_t frames = 0;    // delivered
    uint64_t bytes = 0;     // read, of any frame
    bool midFrame = false;  // a payload is under way: more is near
    bool woken = false;     // by wakeWaiter()
  };
  WaiterRead readAsWaiter(std::chrono::milliseconds timeout);
  void wakeWaiter();
  // Hands the incoming connections back to the I/O thread now, if a waiter has them (one
  // about to sleep on something else, or leaving other threads waiting).
  void releaseToThread();

  // Stops the thread and closes every connection; frames still queued are dropped.
  void stop();

  // Connections refused (bad handshake, garbage, timeouts) so far: for tests.
  uint64_t refusedCount() const { return refused_.load(); }
  uint64_t acceptedCount() const { return accepted_.load(); }
  // Frames taken by send() (whether or not their last byte is out yet).
  uint64_t framesSent() const { return framesSent_.load(); }
  // Frames delivered by readAsWaiter.
  uint64_t framesReadByWaiters() const { return waiterFrames_.load(); }

 private:
  struct Outgoing;
  struct Incoming;
  struct Peer;

  bool enqueue(int peer, const WireHeader& header, const void* data, std::size_t bytes, std::function<void()> done,
               bool copyIfQueued);
  // Whether there is a connection to `peer`, making it on first use.
  bool connected(int peer);
  // Connects and authenticates; the fd or -1 with `why`.
  int connectTo(int peer, std::string& why);
  void run();
  void wakeThread();
  void acceptAll();
  // Reads what `in` has; false when the connection is finished with (closed by us or it).
  bool readFrom(Incoming& in);
  bool handshakeStep(Incoming& in);
  // Whether a connection with `peer` is the pair's lasting one: the lower rank made it.
  bool lasting(bool ours, int peer) const { return ours ? rank_ < peer : peer < rank_; }
  // An accepted, authenticated connection: our frames to its client take it too, if we
  // have no connection to the client yet (incomingMutex_ held).
  void shareWithOutgoing(Incoming& in);
  // Closes `in`, and our outgoing connection on its socket if we have one (EOF, an error, a
  // refused frame: the peer is told by the socket's end).
  void closeIncoming(Incoming& in, const std::string& why);
  // Moves the readers of connections we made into incoming_ (incomingMutex_ held).
  void takeJoining();
  // readAsWaiter without a timeout: one look, as a spinning waiter makes thousands of a
  // second -- one hold of the mutex, one clock reading, no allocation.
  WaiterRead lookAsWaiter();
  // The pieces of a waiter's look, incomingMutex_ held. Tells the I/O thread a waiter reads
  // the connections until `now` + `stay`.
  void announceWaiter(std::chrono::steady_clock::time_point now, std::chrono::nanoseconds stay);
  // Fills `fds` with the authenticated incoming connections, then the waiter's wake-up fd
  // (at the returned index, the number of connections).
  std::size_t waiterPollSet(std::vector<pollfd>& fds) const;
  // Takes the wake-up and reads the connections a poll of waiterPollSet's `fds` found
  // ready, adding what it delivered to `result`.
  void readPolled(const std::vector<pollfd>& fds, std::size_t connections, WaiterRead& result);
  bool payloadUnderWay() const;
  // Starts and finishes the frames whose headers wait in `in`'s staging buffer, as far as
  // their payloads are there; false when the connection is finished with (a refused frame).
  bool takeStagedFrames(Incoming& in);
  // The header in in.header: checked, placed (false: refused, the connection closed). A
  // payload that is not placed and lies `whole` in the staging buffer is lent from there
  // (WireMessage::borrowed: the engine copies it straight into a matching receive, and
  // only an unexpected one into a buffer of its own), else read into scratch.
  bool beginFrame(Incoming& in, const uint8_t* whole);
  void finishFrame(Incoming& in);
  // The staging buffer of an incoming connection: a small frame, header and payload, and
  // often the next ones come in one recv() (a payload that does not fit is read straight
  // into its buffer once the staged part of it is copied there).
  static constexpr std::size_t kStageBytes = 64 * 1024;
  void refuse(Incoming& in, const std::string& why);
  // Writes what the socket takes of `out`'s queue (its mutex held); completed frames'
  // callbacks are appended to `done`. False on a write error (`why`).
  bool writeSome(Outgoing& out, std::vector<std::function<void()>>& done, std::string& why) const;

  uint64_t jobHash_;
  int rank_;
  int worldSize_;
  bulk::Key key_;
  std::chrono::milliseconds connectTimeout_;
  std::chrono::milliseconds handshakeTimeout_;
  // How long the I/O thread polls without sleeping after a frame was under way
  // (ZMPI_BULK_SPIN_US): measured on a 2-vCPU VM, a reader that sleeps in poll() between
  // segments halved the bandwidth (every wake-up of the other vCPU is an exit to the
  // hypervisor); Open MPI's tcp BTL never sleeps while it waits.
  std::chrono::microseconds spinTime_;
  // The I/O thread's scheduler time slice (ZMPI_BULK_SLICE_US; 0, the default: the
  // kernel's, ~1.4 ms here), on kernels with per-thread slices (EEVDF, Linux >= 6.12): beside
  // busy processes the default slice had the reader switched out mid-payload for another
  // process's whole turn; with 10 ms and the gate below, 1 MiB forced-tcp beside two busy
  // loops took 0.6 ms instead of 7.2 (bench/CURVE.md). Only with the gate: a yielding spinner
  // with a long slice gives the CPU away for that long each time (10-15 ms a message). Both
  // are opt-in until the many-frames slowdown under TSan and heavy load is understood
  // (transport/README.md, "Under CPU load").
  std::chrono::microseconds slice_;
  // A yield of the spin longer than this pauses spinning (ZMPI_BULK_CONTESTED_US; 0, the
  // default: never; 200 measured), see spin_gate.h.
  std::chrono::microseconds contested_;
  // The most payload bytes one write (sendmsg) takes (ZMPI_BULK_WRITE_BYTES; 0: no limit).
  // Over loopback tcp here, a single send of 1 MiB or more moved its bytes at half the rate
  // of one just below (raw sockets, no MPI: 1023 KiB one-way 125-188 us, 1 MiB 238-249, 2
  // MiB 411-465); forced-tcp ping-pong, 6 alternating rounds, medians: 1 MiB 229 -> 181 us
  // with this limit, 2 and 4 MiB unchanged within the rounds' spread (417 -> 411, 835 ->
  // 867; Open MPI tcp, which sends 128 KiB fragments, 239/441/852). Half of it (512 KiB)
  // took 2-4 MiB 15% longer: more writes than the cliff needs.
  static constexpr std::size_t kMostPerWrite = 1024 * 1024 - 8 * 1024;
  std::size_t mostPerWrite_;
  // The TCP congestion control our connections send with (ZMPI_BULK_CONGESTION, congestion.h).
  CongestionChoice congestion_;
  int listenFd_ = -1;
  int wakeFd_ = -1;        // eventfd: a queued write, or stop
  int waiterWakeFd_ = -1;  // eventfd: ends a waiter's poll (wakeWaiter)
  Handlers handlers_;
  std::vector<std::unique_ptr<Peer>> peers_;
  // The incoming connections: read by the I/O thread, or by a waiting thread
  // (readAsWaiter) while waiterUntil_ is ahead; guarded by incomingMutex_.
  std::mutex incomingMutex_;
  std::vector<std::unique_ptr<Incoming>> incoming_;
  // Readers of the connections this process made, on their way into incoming_: the
  // connecting thread may hold incomingMutex_ already (it sends from a frame it delivers).
  std::mutex joiningMutex_;
  std::vector<std::unique_ptr<Incoming>> joining_;
  std::atomic<std::size_t> joiningCount_{0};
  uint64_t deliveredFrames_ = 0;  // guarded by incomingMutex_
  uint64_t receivedBytes_ = 0;    // guarded by incomingMutex_
  // steady_clock nanoseconds until which a waiter reads the authenticated connections
  // (stored under incomingMutex_, so that no read the I/O thread decides on under it
  // follows a waiter's announcement).
  std::atomic<int64_t> waiterUntil_{0};
  std::chrono::milliseconds waiterLinger_ = kWaiterLinger;
  std::atomic<uint64_t> waiterFrames_{0};
  // lookAsWaiter's poll set (guarded by incomingMutex_; kept to keep its capacity).
  std::vector<pollfd> lookFds_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> refused_{0};
  std::atomic<uint64_t> accepted_{0};
  std::atomic<uint64_t> framesSent_{0};
};

}  // namespace zmpi::transport
