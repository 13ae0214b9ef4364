#pragma once
// Forwards ranks' output to the launcher's stdout/stderr line by line: bytes from one rank
// are held until their line is complete, and lines are queued whole, so two ranks never
// share a line however their writes interleave. With tagging each line starts with Open
// MPI's "[1,R]<stdout>:" prefix.
//
// Writing never blocks the caller's loop (zmpirun's, which must go on acting on signals,
// rank exits, MPI_Abort and --timeout while its stdout is a paused pager or a full pipe).
// Complete lines go into a queue per destination and out as fast as the destination takes
// them: at once when it can, else when the loop's poll reports it writable (prepare() /
// handle()). The queue is bounded by back-pressure, not by dropping: accepting() turns
// false at the high-water mark and the caller then stops taking output from its sources
// (a local rank's pipe is not read, so the rank blocks in write(); an agent gets no more
// output credit) until the destination has taken enough. Output is dropped only once its
// reader is gone (EPIPE, as mpirun does; the caller ignores SIGPIPE), or when the caller
// gives up on it (abandon()).
//
// How a write is made non-blocking without changing what others share: O_NONBLOCK belongs
// to the open file description, and zmpirun's stdout is often one it shares with the
// shell (a terminal) or with the other members of a pipeline; setting the flag there
// would make their writes fail with EAGAIN, and it would stay set if zmpirun were killed.
// So a pipe, FIFO or terminal is reopened through /proc/self/fd/N, which gives a
// description of our own on the same pipe or terminal, and only that one is made
// non-blocking. If reopening fails (no /proc), each write after POLLOUT is at most
// PIPE_BUF bytes, which a pipe reporting POLLOUT takes whole without waiting. A socket
// is written with send(MSG_DONTWAIT). Regular files and other devices never wait for a
// reader and are written directly. stdout and stderr on the same file, pipe or terminal
// (2>&1, or both on the terminal) share one queue, so a partial write of one stream can
// never be followed by the other stream's bytes in the middle of a line.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "runtime/common/poll_set.h"
#include "runtime/common/unique_fd.h"

namespace zmpi::runtime {

enum class Stream { Stdout = 1, Stderr = 2 };

class OutputForwarder {
 public:
  // `highWater`: queued bytes at which accepting() turns false.
  OutputForwarder(int stdoutFd, int stderrFd, bool tagOutput, size_t highWater = kHighWater);
  OutputForwarder(const OutputForwarder&) = delete;
  OutputForwarder& operator=(const OutputForwarder&) = delete;

  // Bytes a rank wrote; complete lines are queued (and written as far as the destination
  // takes them now), a trailing partial line is held.
  void write(int rank, Stream stream, std::string_view bytes);
  // The rank's stream reached end of file: its held partial line (if any) is queued as is.
  void close(int rank, Stream stream);

  // Fewer than the high-water mark of bytes queued: the caller may take more output.
  bool accepting() const { return pending() < highWater_; }
  // Bytes queued for destinations whose reader is still there.
  size_t pending() const;
  // Bytes written out so far (the caller watches it for progress).
  uint64_t written() const { return written_; }
  // Adds the destinations with queued bytes to `set` (POLLOUT); handle() then writes to
  // those that are ready as much as they take.
  void prepare(PollSet& set);
  void handle(const PollSet& set);
  // Drops what is queued and everything later: the caller gives up on a reader that does
  // not read (the job was interrupted and must end).
  void abandon();

  // A line longer than this is written in pieces rather than held without bound; the
  // pieces of one line stay together unless another rank writes in between.
  static constexpr size_t kMaxHeldBytes = 1 << 20;
  static constexpr size_t kHighWater = 1 << 20;

 private:
  using Source = std::pair<int, Stream>;
  enum class Mode {
    Direct,    // regular file, /dev/null, a descriptor already non-blocking: plain write()
    Reopened,  // our own non-blocking description of the pipe or terminal
    Chunks,    // a pipe or terminal we could not reopen: PIPE_BUF bytes after each POLLOUT
    Socket,    // send(MSG_DONTWAIT)
  };
  struct Destination {
    int fd = -1;  // what is written to (`own` when reopened)
    UniqueFd own;
    Mode mode = Mode::Direct;
    bool alive = true;  // false once its reader went away (EPIPE)
    std::string queue;  // bytes not yet written, from `offset` on
    size_t offset = 0;
    std::optional<Source> openLine;  // whose unfinished line the queue currently ends with
    size_t pollIndex = kNotPolled;
    size_t pending() const { return alive ? queue.size() - offset : 0; }
  };
  static constexpr size_t kNotPolled = static_cast<size_t>(-1);

  static void open(Destination& destination, int fd);
  // Appends `text` from `source` to the queue of `destination`: ends another rank's
  // unfinished line first, tags the start of a line, records whether the line is open.
  void append(Destination& destination, const Source& source, std::string_view text, bool lineComplete);
  // Writes as much of the queue as the destination takes without waiting.
  void writeSome(Destination& destination);
  Destination& destinationOf(Stream stream) { return destinations_[stream == Stream::Stdout ? 0 : stderrIndex_]; }

  Destination destinations_[2];
  size_t count_ = 2;        // 1 when stdout and stderr are the same file, pipe or terminal
  size_t stderrIndex_ = 1;  // 0 then
  bool tagOutput_;
  size_t highWater_;
  uint64_t written_ = 0;
  std::map<Source, std::string> held_;
};

}  // namespace zmpi::runtime
