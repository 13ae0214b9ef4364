#include "runtime/common/stdin_forwarder.h"

#include <unistd.h>

#include <cerrno>

namespace zmpi::runtime {

StdinForwarder::StdinForwarder(int source, UniqueFd sink) : source_(source), sink_(std::move(sink)) {
  setNonBlocking(sink_.get());  // our own pipe end: making it non-blocking affects nobody else
}

void StdinForwarder::prepare(PollSet& set) {
  sourceIndex_ = sinkIndex_ = kUnset;
  if (!sink_) return;
  if (!buffer_.empty()) {
    sinkIndex_ = set.addFd(sink_.get(), ZMQ_POLLOUT);
  } else if (!sourceDone_) {
    sourceIndex_ = set.addFd(source_, ZMQ_POLLIN);
  }
}

void StdinForwarder::handle(const PollSet& set) {
  if (sourceIndex_ != kUnset && set.readable(sourceIndex_)) readSource();
  if (sinkIndex_ != kUnset && set.writable(sinkIndex_)) writeSink();
}

void StdinForwarder::readSource() {
  buffer_.resize(kChunkBytes);
  ssize_t got;
  do {
    got = ::read(source_, buffer_.data(), buffer_.size());
  } while (got < 0 && errno == EINTR);
  if (got < 0 && errno == EAGAIN) {
    buffer_.clear();
    return;
  }
  // End of input, or an error such as EIO (a background launcher reading a terminal):
  // either way the rank sees end of file.
  buffer_.resize(got > 0 ? static_cast<size_t>(got) : 0);
  if (got <= 0) {
    sourceDone_ = true;
    sink_.reset();
  }
}

void StdinForwarder::writeSink() {
  const ssize_t written = ::write(sink_.get(), buffer_.data(), buffer_.size());
  if (written >= 0) {
    buffer_.erase(0, static_cast<size_t>(written));
    if (buffer_.empty() && sourceDone_) sink_.reset();
    return;
  }
  if (errno == EINTR || errno == EAGAIN) return;
  stop();  // EPIPE: the rank closed its stdin or exited; the rest of the input is unwanted
}

void StdinForwarder::stop() {
  sink_.reset();
  buffer_.clear();
  sourceDone_ = true;
}

}  // namespace zmpi::runtime
