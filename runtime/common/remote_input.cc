#include "runtime/common/remote_input.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "runtime/common/agent_codec.h"

namespace zmpi::runtime {

InputSender::InputSender(int source, int rank, Send send)
    : source_(source), rank_(rank), send_(std::move(send)), active_(true) {}

void InputSender::prepare(PollSet& set) {
  sourceIndex_ = kNotPolled;
  if (active_ && inFlight_ < kInputWindow) sourceIndex_ = set.addFd(source_, ZMQ_POLLIN);
}

void InputSender::handle(const PollSet& set) {
  if (sourceIndex_ != kNotPolled && set.readable(sourceIndex_)) readSource();
}

void InputSender::readSource() {
  const size_t room = static_cast<size_t>(std::min<uint64_t>(kMaxInputChunk, kInputWindow - inFlight_));
  std::string data(room, '\0');
  ssize_t got;
  do {
    got = ::read(source_, data.data(), data.size());
  } while (got < 0 && errno == EINTR);
  if (got < 0 && errno == EAGAIN) return;
  proto::Input input;
  input.set_rank(rank_);
  if (got > 0) {
    data.resize(static_cast<size_t>(got));
    input.set_data(std::move(data));
    inFlight_ += static_cast<uint64_t>(got);
  } else {
    // End of input, or an error such as EIO (a background zmpirun reading a terminal):
    // either way the rank sees end of file.
    input.set_end(true);
    active_ = false;
  }
  if (!send_(std::move(input))) active_ = false;  // the agent is unreachable; its loss ends the job
}

void InputSender::onCredit(const proto::InputCredit& credit) {
  inFlight_ -= std::min(inFlight_, credit.bytes());
  if (credit.closed()) stop();
}

void InputSender::stop() { active_ = false; }

InputSink::InputSink(int rank, UniqueFd pipe) : rank_(rank), pipe_(std::move(pipe)) {
  setNonBlocking(pipe_.get());  // our own pipe end: the rank's read end stays blocking
}

std::string InputSink::accept(const proto::Input& input) {
  if (rank_ < 0) return "input, but no rank of this job on this host receives stdin";
  auto reject = [&](const std::string& why) {
    closePipe(true);
    return why;
  };
  if (input.rank() != rank_) {
    return reject("input for rank " + std::to_string(input.rank()) + ", but rank " + std::to_string(rank_) +
                  " receives stdin");
  }
  const size_t size = input.data().size();
  if (size > kMaxInputChunk) {
    return reject("an input piece of " + std::to_string(size) + " bytes (at most " + std::to_string(kMaxInputChunk) +
                  ")");
  }
  if (ended_) return reject("input after its end");
  if (!pipe_) {
    // The rank closed its stdin or exited; the launcher stops once it hears so.
    ended_ = input.end();
    return {};
  }
  if (queued_ + size > kInputWindow) {
    return reject("more input than the window of " + std::to_string(kInputWindow) + " bytes allows");
  }
  if (size > 0) {
    pieces_.push_back(input.data());
    queued_ += size;
  }
  if (input.end()) {
    ended_ = true;
    if (queued_ == 0) pipe_.reset();  // everything is written: the rank sees end of file
  }
  return {};
}

void InputSink::prepare(PollSet& set) {
  pipeIndex_ = kNotPolled;
  if (pipe_ && queued_ > 0) pipeIndex_ = set.addFd(pipe_.get(), ZMQ_POLLOUT);
}

void InputSink::handle(const PollSet& set) {
  if (pipeIndex_ != kNotPolled && set.writable(pipeIndex_)) writePipe();
}

void InputSink::writePipe() {
  while (queued_ > 0) {
    const std::string& piece = pieces_.front();
    const ssize_t written = ::write(pipe_.get(), piece.data() + offset_, piece.size() - offset_);
    if (written < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) return;
      closePipe(true);  // EPIPE: the rank closed its stdin or exited; the rest is unwanted
      return;
    }
    offset_ += static_cast<size_t>(written);
    queued_ -= static_cast<uint64_t>(written);
    written_ += static_cast<uint64_t>(written);
    if (offset_ == piece.size()) {
      pieces_.pop_front();
      offset_ = 0;
    }
  }
  if (ended_) pipe_.reset();
}

void InputSink::close() { closePipe(true); }

void InputSink::closePipe(bool report) {
  const bool wasOpen = static_cast<bool>(pipe_);
  pipe_.reset();
  pieces_.clear();
  offset_ = 0;
  queued_ = 0;
  if (report && wasOpen) closed_ = true;
}

std::optional<proto::InputCredit> InputSink::takeCredit() {
  if (closedReported_) return std::nullopt;  // the launcher sends nothing more
  const bool reportClose = closed_;
  if (!reportClose && (written_ == 0 || (written_ < kInputWindow / 4 && queued_ > 0))) return std::nullopt;
  proto::InputCredit credit;
  credit.set_bytes(written_);
  credit.set_closed(reportClose);
  written_ = 0;
  closedReported_ = reportClose;
  return credit;
}

}  // namespace zmpi::runtime
