#pragma once
// The POSIX file under an MPI file: an owned descriptor with the few calls MPI-IO needs.
// Every failure throws MpiError with the MPI error class errno maps to (errorClassOf) and
// a message naming the call, the path and the system's reason; an I/O error never ends
// the process. Reads and writes loop over short transfers and EINTR.
#include <sys/types.h>

#include <cstdint>
#include <string>

namespace zmpi::mpi::io {

// The MPI-IO error class for an errno value: ENOENT -> MPI_ERR_NO_SUCH_FILE, EACCES/EPERM
// -> MPI_ERR_ACCESS, EEXIST -> MPI_ERR_FILE_EXISTS, EROFS -> MPI_ERR_READ_ONLY, ENOSPC ->
// MPI_ERR_NO_SPACE, EDQUOT -> MPI_ERR_QUOTA, EBUSY/ETXTBSY -> MPI_ERR_FILE_IN_USE, bad
// names -> MPI_ERR_BAD_FILE, anything else MPI_ERR_IO.
int errorClassOf(int error);

class PosixFile {
 public:
  PosixFile() = default;
  // open(2) with `flags`; a created file gets `permissions` (less the umask).
  PosixFile(const std::string& path, int flags, mode_t permissions);
  ~PosixFile();
  PosixFile(PosixFile&& other) noexcept;
  PosixFile& operator=(PosixFile&& other) noexcept;
  PosixFile(const PosixFile&) = delete;
  PosixFile& operator=(const PosixFile&) = delete;

  bool isOpen() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }

  // Reads up to `length` bytes at `offset`; fewer only at end of file.
  std::uint64_t readAt(std::int64_t offset, void* data, std::uint64_t length) const;
  // Writes all `length` bytes at `offset` (or throws).
  void writeAt(std::int64_t offset, const void* data, std::uint64_t length) const;

  std::int64_t size() const;
  void truncate(std::int64_t size) const;
  // Reserves blocks so the file is at least `size` bytes; never shrinks it.
  void allocate(std::int64_t size) const;
  void sync() const;
  // Closes now, reporting a failure (the destructor closes silently).
  void close();

  // Holds an advisory byte-range lock (open file description locks, so threads of one
  // process exclude each other too) until destroyed: MPI_File_set_atomicity's mode.
  class RangeLock {
   public:
    RangeLock(const PosixFile& file, std::int64_t offset, std::int64_t length, bool exclusive);
    ~RangeLock();
    RangeLock(const RangeLock&) = delete;
    RangeLock& operator=(const RangeLock&) = delete;

   private:
    int fd_;
    std::int64_t offset_, length_;
  };

  // unlink(2), for MPI_File_delete and MPI_MODE_DELETE_ON_CLOSE.
  static void remove(const std::string& path);

 private:
  [[noreturn]] void failWith(const char* what, int error) const;

  int fd_ = -1;
  std::string path_;
};

}  // namespace zmpi::mpi::io
