#include "mpi/rma/shared_segment.h"

#include <fcntl.h>
#include <mpi.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "mpi/core/error.h"
#include "transport/job_files.h"
#include "transport/wire.h"

namespace zmpi::mpi::rma {
namespace {

[[noreturn]] void failSystem(const std::string& what, const std::string& name) {
  fail(MPI_ERR_NO_MEM, what + " of shared-memory segment " + name + " failed: " + std::strerror(errno));
}

// mmap cannot map zero bytes; a window whose ranks all asked for none still gets a page.
std::size_t mappedBytes(std::size_t bytes) { return bytes == 0 ? 1 : bytes; }

}  // namespace

std::string SharedSegment::nameFor(const std::string& jobId, int creatorPid, uint32_t windowId) {
  // The job's prefix, so the launcher can remove what a crashed job left behind.
  return transport::jobShmPrefix(transport::jobHashOf(jobId)) + std::to_string(creatorPid) + "-w" +
         std::to_string(windowId);
}

std::unique_ptr<SharedSegment> SharedSegment::map(const std::string& name, int fd, std::size_t bytes) {
  void* data = mmap(nullptr, mappedBytes(bytes), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int mapError = errno;
  close(fd);
  if (data == MAP_FAILED) {
    errno = mapError;
    failSystem("mmap", name);
  }
  return std::unique_ptr<SharedSegment>(new SharedSegment(name, static_cast<char*>(data), bytes));
}

std::unique_ptr<SharedSegment> SharedSegment::create(const std::string& name, std::size_t bytes) {
  const int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) failSystem("shm_open (create)", name);
  // tmpfs sizes a file without reserving its pages: a segment larger than what is free
  // would map, then kill the first rank to touch a page past the end with SIGBUS (a
  // container's /dev/shm is 64 MiB by default). Refuse it here, with a message.
  struct statvfs space {};
  if (fstatvfs(fd, &space) == 0 && static_cast<unsigned long long>(space.f_bavail) * space.f_frsize < bytes) {
    close(fd);
    shm_unlink(name.c_str());
    fail(MPI_ERR_NO_MEM, "shared-memory segment " + name + " needs " + std::to_string(bytes) + " bytes, but only " +
                             std::to_string(static_cast<unsigned long long>(space.f_bavail) * space.f_frsize) +
                             " are free in the host's shared memory (/dev/shm)");
  }
  if (ftruncate(fd, static_cast<off_t>(mappedBytes(bytes))) != 0) {
    const int error = errno;
    close(fd);
    shm_unlink(name.c_str());
    errno = error;
    failSystem("ftruncate", name);
  }
  try {
    return map(name, fd, bytes);
  } catch (...) {
    shm_unlink(name.c_str());
    throw;
  }
}

std::unique_ptr<SharedSegment> SharedSegment::open(const std::string& name, std::size_t bytes) {
  const int fd = shm_open(name.c_str(), O_RDWR, 0600);
  if (fd < 0) failSystem("shm_open", name);
  auto segment = map(name, fd, bytes);
  segment->linked_ = false;  // not ours to unlink
  return segment;
}

void SharedSegment::unlink() {
  if (!linked_) return;
  linked_ = false;
  shm_unlink(name_.c_str());
}

SharedSegment::~SharedSegment() {
  munmap(data_, mappedBytes(size_));
  unlink();  // the creator's window went away without MPI_Win_free: do not leak the name
}

}  // namespace zmpi::mpi::rma
