#include "transport/shm_segment.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "transport/errors.h"

namespace zmpi::transport {
namespace {
std::string systemError(const std::string& what, const std::string& name) {
  return what + " " + name + ": " + std::strerror(errno);
}
}  // namespace

SharedSegment SharedSegment::create(const std::string& name, std::size_t bytes) {
  int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) throw TransportError(systemError("shm_open (create)", name));
  if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    ::close(fd);
    shm_unlink(name.c_str());
    throw TransportError(systemError("ftruncate", name));
  }
  void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (data == MAP_FAILED) {
    shm_unlink(name.c_str());
    throw TransportError(systemError("mmap", name));
  }
  SharedSegment segment;
  segment.name_ = name;
  segment.data_ = data;
  segment.size_ = bytes;
  segment.owner_ = true;
  return segment;
}

SharedSegment SharedSegment::open(const std::string& name) {
  int fd = shm_open(name.c_str(), O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) throw TransportError(systemError("shm_open", name));
  struct stat info {};
  if (fstat(fd, &info) != 0) {
    ::close(fd);
    throw TransportError(systemError("fstat", name));
  }
  void* data = mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (data == MAP_FAILED) throw TransportError(systemError("mmap", name));
  SharedSegment segment;
  segment.name_ = name;
  segment.data_ = data;
  segment.size_ = static_cast<std::size_t>(info.st_size);
  return segment;
}

SharedSegment::~SharedSegment() { release(); }

SharedSegment::SharedSegment(SharedSegment&& other) noexcept
    : name_(std::move(other.name_)), data_(other.data_), size_(other.size_), owner_(other.owner_) {
  other.data_ = nullptr;
  other.owner_ = false;
}

SharedSegment& SharedSegment::operator=(SharedSegment&& other) noexcept {
  if (this != &other) {
    release();
    name_ = std::move(other.name_);
    data_ = other.data_;
    size_ = other.size_;
    owner_ = other.owner_;
    other.data_ = nullptr;
    other.owner_ = false;
  }
  return *this;
}

void SharedSegment::release() {
  if (data_ != nullptr) munmap(data_, size_);
  if (owner_) shm_unlink(name_.c_str());
  data_ = nullptr;
  owner_ = false;
}

void SharedSegment::unlinkName() {
  if (owner_) shm_unlink(name_.c_str());
  owner_ = false;
}

int SharedSegment::removeAll(const std::string& prefix) {
  // POSIX shm names live in /dev/shm on Linux; names passed to shm_open start with '/'.
  const std::string bare = prefix.empty() || prefix[0] != '/' ? prefix : prefix.substr(1);
  int removed = 0;
  if (DIR* dir = opendir("/dev/shm")) {
    while (dirent* entry = readdir(dir)) {
      if (std::strncmp(entry->d_name, bare.c_str(), bare.size()) == 0) {
        removed += shm_unlink(("/" + std::string(entry->d_name)).c_str()) == 0;
      }
    }
    closedir(dir);
  }
  return removed;
}

}  // namespace zmpi::transport
