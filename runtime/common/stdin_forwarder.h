#pragma once
// Copies the launcher's stdin to one rank's stdin pipe without ever blocking the poll
// loop: it reads only when its buffer is empty and writes only when the pipe has room, so
// a rank that never reads holds back at most one buffer, never the launcher.
#include <string>

#include "runtime/common/poll_set.h"
#include "runtime/common/unique_fd.h"

namespace zmpi::runtime {

class StdinForwarder {
 public:
  StdinForwarder() = default;
  // `source` is not owned (normally 0); `sink` is the write end of the rank's stdin pipe.
  StdinForwarder(int source, UniqueFd sink);

  void prepare(PollSet& set);
  void handle(const PollSet& set);
  // Stops forwarding (the rank is gone, or the job is ending); closes the rank's stdin.
  void stop();
  bool active() const { return static_cast<bool>(sink_); }

  static constexpr size_t kChunkBytes = 64 * 1024;

 private:
  void readSource();
  void writeSink();

  int source_ = -1;
  UniqueFd sink_;
  std::string buffer_;
  bool sourceDone_ = false;
  static constexpr size_t kUnset = static_cast<size_t>(-1);
  size_t sourceIndex_ = kUnset;
  size_t sinkIndex_ = kUnset;
};

}  // namespace zmpi::runtime
