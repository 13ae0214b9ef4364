#pragma once
// An owned file descriptor, closed exactly once. Movable, not copyable, like cppzmq's
// owning types; the launcher holds every pipe end in one of these so that an early return
// or an exception can never leak a descriptor into the next rank it starts.
#include <string_view>
#include <utility>

namespace zmpi::runtime {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(std::exchange(other.fd_, -1));
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

struct Pipe {
  UniqueFd read;
  UniqueFd write;
};

// A pipe whose both ends are close-on-exec: a rank gets only the ends dup2'ed onto its
// 0/1/2, never another rank's pipe (which would keep that pipe from ever reaching EOF).
// Throws std::system_error.
Pipe makePipe();

// Opens /dev/null close-on-exec with `flags` (O_RDONLY, O_RDWR...). Throws std::system_error.
UniqueFd openDevNull(int flags);

void setNonBlocking(int fd);

// Writes all of `bytes`, retrying on EINTR, short writes and EAGAIN (waiting in poll for
// room: the descriptor may be non-blocking because another process set it so). Returns
// false if the reader is gone (EPIPE) or the descriptor is unusable.
bool writeAll(int fd, std::string_view bytes);

// Makes sure descriptors 0, 1 and 2 are open (on /dev/null if they were closed), so no
// pipe created later can land on them and be mistaken for standard input or output.
void ensureStandardDescriptors();

}  // namespace zmpi::runtime
