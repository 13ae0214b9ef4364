#include "runtime/common/output_forwarder.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace zmpi::runtime {
namespace {

bool sameObject(int a, int b) {
  struct stat first {};
  struct stat second {};
  if (::fstat(a, &first) != 0 || ::fstat(b, &second) != 0) return false;
  return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

// Compacting the queue costs a copy of what is left: done once the written part is large.
constexpr size_t kCompactBytes = 64 * 1024;

}  // namespace

OutputForwarder::OutputForwarder(int stdoutFd, int stderrFd, bool tagOutput, size_t highWater)
    : tagOutput_(tagOutput), highWater_(highWater) {
  open(destinations_[0], stdoutFd);
  if (stderrFd == stdoutFd || sameObject(stdoutFd, stderrFd)) {
    count_ = 1;
    stderrIndex_ = 0;
  } else {
    open(destinations_[1], stderrFd);
  }
}

void OutputForwarder::open(Destination& destination, int fd) {
  destination.fd = fd;
  destination.mode = Mode::Direct;
  struct stat status {};
  const int flags = ::fcntl(fd, F_GETFL);
  if (::fstat(fd, &status) != 0 || flags < 0 || (flags & O_NONBLOCK) != 0) return;  // EAGAIN handled as it is
  if (S_ISSOCK(status.st_mode)) {
    destination.mode = Mode::Socket;
    return;
  }
  if (!S_ISFIFO(status.st_mode) && !(S_ISCHR(status.st_mode) && ::isatty(fd) == 1)) return;
  // A description of our own on the same pipe or terminal (O_NOCTTY: a terminal opened
  // here must not become zmpirun's controlling terminal).
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  UniqueFd own(::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  struct stat reopened {};
  if (own && ::fstat(own.get(), &reopened) == 0 && reopened.st_dev == status.st_dev &&
      reopened.st_ino == status.st_ino && reopened.st_rdev == status.st_rdev) {
    destination.own = std::move(own);
    destination.fd = destination.own.get();
    destination.mode = Mode::Reopened;
    return;
  }
  destination.mode = Mode::Chunks;
}

void OutputForwarder::append(Destination& destination, const Source& source, std::string_view text, bool lineComplete) {
  if (!destination.alive) return;
  std::string& out = destination.queue;
  if (destination.openLine && *destination.openLine != source) {
    out += '\n';  // another rank's unfinished line: end it rather than continue it
    destination.openLine.reset();
  }
  if (!destination.openLine && tagOutput_) {
    out += "[1," + std::to_string(source.first) + "]" + (source.second == Stream::Stdout ? "<stdout>:" : "<stderr>:");
  }
  out += text;
  if (lineComplete) {
    out += '\n';
    destination.openLine.reset();
  } else {
    destination.openLine = source;
  }
}

void OutputForwarder::writeSome(Destination& destination) {
  while (destination.pending() > 0) {
    const char* data = destination.queue.data() + destination.offset;
    size_t size = destination.queue.size() - destination.offset;
    ssize_t done;
    if (destination.mode == Mode::Chunks) {
      pollfd item{destination.fd, POLLOUT, 0};
      const int ready = ::poll(&item, 1, 0);
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) break;  // full: the loop's poll says when there is room
      // POLLOUT on a pipe means a free buffer slot, which takes PIPE_BUF bytes whole; on
      // POLLERR (no reader) the write reports EPIPE.
      size = std::min<size_t>(size, PIPE_BUF);
      done = ::write(destination.fd, data, size);
    } else if (destination.mode == Mode::Socket) {
      done = ::send(destination.fd, data, size, MSG_DONTWAIT | MSG_NOSIGNAL);
    } else {
      done = ::write(destination.fd, data, size);
    }
    if (done > 0) {
      destination.offset += static_cast<size_t>(done);
      written_ += static_cast<uint64_t>(done);
      continue;
    }
    if (done < 0 && errno == EINTR) continue;
    if (done == 0 || errno == EAGAIN || errno == EWOULDBLOCK) break;
    // The reader went away (`zmpirun ... | head`: EPIPE) or the destination is unusable:
    // the rest of this stream is lost, the job goes on.
    destination.alive = false;
    destination.queue.clear();
    destination.offset = 0;
    return;
  }
  if (destination.offset == destination.queue.size()) {
    destination.queue.clear();
    destination.offset = 0;
  } else if (destination.offset >= kCompactBytes && destination.offset >= destination.queue.size() / 2) {
    destination.queue.erase(0, destination.offset);
    destination.offset = 0;
  }
}

void OutputForwarder::write(int rank, Stream stream, std::string_view bytes) {
  const Source source{rank, stream};
  Destination& destination = destinationOf(stream);
  std::string& held = held_[source];
  // All complete lines of this chunk are queued together: one rank's lines stay together
  // and the launcher makes one system call per chunk, not per line.
  for (size_t newline; (newline = bytes.find('\n')) != std::string_view::npos;) {
    if (held.empty()) {
      append(destination, source, bytes.substr(0, newline), true);
    } else {
      held.append(bytes.substr(0, newline));
      append(destination, source, held, true);
      held.clear();
    }
    bytes.remove_prefix(newline + 1);
  }
  held.append(bytes);
  if (held.size() >= kMaxHeldBytes) {
    append(destination, source, held, false);
    held.clear();
  }
  writeSome(destination);
}

void OutputForwarder::close(int rank, Stream stream) {
  const Source source{rank, stream};
  auto it = held_.find(source);
  if (it == held_.end()) return;
  Destination& destination = destinationOf(stream);
  if (!it->second.empty()) append(destination, source, it->second, false);
  held_.erase(it);
  writeSome(destination);
}

size_t OutputForwarder::pending() const {
  size_t total = 0;
  for (size_t i = 0; i < count_; ++i) total += destinations_[i].pending();
  return total;
}

void OutputForwarder::prepare(PollSet& set) {
  for (size_t i = 0; i < count_; ++i) {
    Destination& destination = destinations_[i];
    destination.pollIndex = destination.pending() > 0 ? set.addFd(destination.fd, ZMQ_POLLOUT) : kNotPolled;
  }
}

void OutputForwarder::handle(const PollSet& set) {
  for (size_t i = 0; i < count_; ++i) {
    Destination& destination = destinations_[i];
    const size_t index = std::exchange(destination.pollIndex, kNotPolled);
    if (index != kNotPolled && set.writable(index)) writeSome(destination);
  }
}

void OutputForwarder::abandon() {
  for (size_t i = 0; i < count_; ++i) {
    destinations_[i].alive = false;
    destinations_[i].queue.clear();
    destinations_[i].offset = 0;
  }
  held_.clear();
}

}  // namespace zmpi::runtime
