#pragma once
// zmpirun's stdin for a rank that a zmpid agent started (rank 0 on another host): the two
// ends of its trip over the authenticated launcher<->agent channel.
//
// InputSender (zmpirun) reads its stdin in pieces of at most kMaxInputChunk, but only
// while fewer than kInputWindow bytes are unacknowledged, and hands each piece to the
// agent as an Input message; end of file becomes an Input with `end`. InputSink (zmpid)
// queues what arrives, writes it to the rank's stdin pipe when the pipe has room, and
// returns an InputCredit for what it wrote. So neither side holds more than the window,
// however much stdin there is and however slowly the rank reads; a rank that exits or
// closes its stdin makes the sink report `closed`, and the sender reads no more (the rest
// of the input is unwanted, as with a local rank). Both live in their owner's poll loop
// and never block it.
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>

#include "agent_protocol.pb.h"  // generated from runtime/common/agent_protocol.proto
#include "runtime/common/poll_set.h"
#include "runtime/common/unique_fd.h"

namespace zmpi::runtime {

class InputSender {
 public:
  // Queues one Input for the agent; false if it could not be (the agent is unreachable).
  using Send = std::function<bool(proto::Input&&)>;

  InputSender() = default;  // forwards nothing
  // `source` is not owned (normally 0); `rank` receives the input.
  InputSender(int source, int rank, Send send);

  void prepare(PollSet& set);
  void handle(const PollSet& set);
  // An InputCredit from the agent. Credit beyond what is in flight is ignored (a confused
  // agent cannot make the window grow).
  void onCredit(const proto::InputCredit& credit);
  // Reads no more: the rank is gone, its host is lost, or the job is ending.
  void stop();

  bool active() const { return active_; }
  int rank() const { return rank_; }
  uint64_t inFlight() const { return inFlight_; }

 private:
  void readSource();

  int source_ = -1;
  int rank_ = -1;
  Send send_;
  bool active_ = false;  // still reading the source
  uint64_t inFlight_ = 0;
  static constexpr size_t kNotPolled = static_cast<size_t>(-1);
  size_t sourceIndex_ = kNotPolled;
};

class InputSink {
 public:
  InputSink() = default;  // no rank of this session receives stdin: every Input is refused
  // `pipe` is the write end of `rank`'s stdin pipe (made non-blocking here).
  InputSink(int rank, UniqueFd pipe);

  // Checks and queues one Input from the launcher. Returns why it breaks the protocol
  // (another rank's, a piece larger than kMaxInputChunk, beyond the window, after the
  // end), in which case the rank's stdin is closed and reported closed; empty if taken.
  // Input arriving after the rank's stdin closed for its own reasons is dropped.
  std::string accept(const proto::Input& input);

  void prepare(PollSet& set);
  void handle(const PollSet& set);
  // The rank exited (or the job is ending): close its stdin, drop what waits.
  void close();
  // What to tell the launcher now, if anything: bytes written since the last credit (sent
  // once a quarter window is written, or when everything queued is), and `closed` once.
  std::optional<proto::InputCredit> takeCredit();

  int rank() const { return rank_; }
  bool pipeOpen() const { return static_cast<bool>(pipe_); }
  uint64_t queued() const { return queued_; }

 private:
  void writePipe();
  void closePipe(bool report);

  int rank_ = -1;
  UniqueFd pipe_;
  std::deque<std::string> pieces_;
  size_t offset_ = 0;    // into pieces_.front()
  uint64_t queued_ = 0;  // bytes in pieces_ not yet written
  uint64_t written_ = 0;
  bool ended_ = false;   // an Input with `end` arrived
  bool closed_ = false;  // closed before the end: report it
  bool closedReported_ = false;
  static constexpr size_t kNotPolled = static_cast<size_t>(-1);
  size_t pipeIndex_ = kNotPolled;
};

}  // namespace zmpi::runtime
