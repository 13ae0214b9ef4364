#include "mpi/io/posix_file.h"

#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <utility>

#include "mpi/core/error.h"

namespace zmpi::mpi::io {

int errorClassOf(int error) {
  switch (error) {
    case ENOENT:
      return MPI_ERR_NO_SUCH_FILE;
    case EACCES:
    case EPERM:
      return MPI_ERR_ACCESS;
    case EEXIST:
      return MPI_ERR_FILE_EXISTS;
    case EROFS:
      return MPI_ERR_READ_ONLY;
    case ENOSPC:
    case EFBIG:
      return MPI_ERR_NO_SPACE;
    case EDQUOT:
      return MPI_ERR_QUOTA;
    case EBUSY:
    case ETXTBSY:
      return MPI_ERR_FILE_IN_USE;
    case ENAMETOOLONG:
    case ENOTDIR:
    case EISDIR:
    case ELOOP:
      return MPI_ERR_BAD_FILE;
    default:
      return MPI_ERR_IO;
  }
}

PosixFile::PosixFile(const std::string& path, int flags, mode_t permissions) : path_(path) {
  do {
    fd_ = ::open(path.c_str(), flags, permissions);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) failWith("cannot open", errno);
  // open(2) succeeds on a directory opened read-only; MPI files are regular files.
  struct stat info;
  if (::fstat(fd_, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    failWith("cannot open", EISDIR);
  }
}

PosixFile::~PosixFile() {
  if (fd_ >= 0) ::close(fd_);
}

PosixFile::PosixFile(PosixFile&& other) noexcept : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

PosixFile& PosixFile::operator=(PosixFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

void PosixFile::failWith(const char* what, int error) const {
  fail(errorClassOf(error), std::string(what) + " '" + path_ + "': " + std::strerror(error));
}

std::uint64_t PosixFile::readAt(std::int64_t offset, void* data, std::uint64_t length) const {
  auto* out = static_cast<char*>(data);
  std::uint64_t done = 0;
  while (done < length) {
    const ssize_t n =
        ::pread(fd_, out + done, length - done, static_cast<off_t>(offset + static_cast<std::int64_t>(done)));
    if (n < 0) {
      if (errno == EINTR) continue;
      failWith("read failed on", errno);
    }
    if (n == 0) break;  // end of file
    done += static_cast<std::uint64_t>(n);
  }
  return done;
}

void PosixFile::writeAt(std::int64_t offset, const void* data, std::uint64_t length) const {
  const auto* in = static_cast<const char*>(data);
  std::uint64_t done = 0;
  while (done < length) {
    const ssize_t n =
        ::pwrite(fd_, in + done, length - done, static_cast<off_t>(offset + static_cast<std::int64_t>(done)));
    if (n < 0) {
      if (errno == EINTR) continue;
      failWith("write failed on", errno);
    }
    done += static_cast<std::uint64_t>(n);
  }
}

std::int64_t PosixFile::size() const {
  struct stat info;
  if (::fstat(fd_, &info) != 0) failWith("cannot stat", errno);
  return static_cast<std::int64_t>(info.st_size);
}

void PosixFile::truncate(std::int64_t size) const {
  int rc;
  do {
    rc = ::ftruncate(fd_, static_cast<off_t>(size));
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) failWith("cannot resize", errno);
}

void PosixFile::allocate(std::int64_t size) const {
  if (size <= 0) return;
  // posix_fallocate returns the error instead of setting errno; glibc emulates it on file
  // systems without fallocate(2).
  const int rc = ::posix_fallocate(fd_, 0, static_cast<off_t>(size));
  if (rc != 0) failWith("cannot preallocate", rc);
}

void PosixFile::sync() const {
  if (::fsync(fd_) != 0) failWith("cannot sync", errno);
}

void PosixFile::close() {
  if (fd_ < 0) return;
  const int fd = std::exchange(fd_, -1);
  // After close(2) fails the descriptor is gone anyway (Linux): report, never retry.
  if (::close(fd) != 0 && errno != EINTR) failWith("error closing", errno);
}

void PosixFile::remove(const std::string& path) {
  if (::unlink(path.c_str()) != 0) {
    const int error = errno;
    fail(errorClassOf(error), "cannot delete '" + path + "': " + std::strerror(error));
  }
}

PosixFile::RangeLock::RangeLock(const PosixFile& file, std::int64_t offset, std::int64_t length, bool exclusive)
    : fd_(file.fd_), offset_(offset), length_(length) {
  struct flock lock {};
  lock.l_type = static_cast<short>(exclusive ? F_WRLCK : F_RDLCK);
  lock.l_whence = SEEK_SET;
  lock.l_start = static_cast<off_t>(offset);
  lock.l_len = static_cast<off_t>(length);
  int rc;
  do {
    rc = ::fcntl(fd_, F_OFD_SETLKW, &lock);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) file.failWith("cannot lock a byte range of", errno);
}

PosixFile::RangeLock::~RangeLock() {
  struct flock lock {};
  lock.l_type = F_UNLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = static_cast<off_t>(offset_);
  lock.l_len = static_cast<off_t>(length_);
  ::fcntl(fd_, F_OFD_SETLK, &lock);
}

}  // namespace zmpi::mpi::io
