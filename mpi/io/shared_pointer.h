#pragma once
// The shared file pointer (MPI-3.1 section 13.4.4): one position in the view's byte stream
// that all ranks of a file move. It lives in a small side file next to the data file (as
// ROMIO's does), so ranks on any host that sees the data file see it too; each update is
// read-modify-write under an exclusive byte-range lock. The side file is created on first
// use by whichever rank gets there (an empty file reads as the initial position) and
// deleted when the file is closed. A directory the program cannot write makes shared-pointer calls
// fail (with the class of the open(2) error); a job that dies leaves the side file behind.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "mpi/io/posix_file.h"

namespace zmpi::mpi::io {

class SharedPointer {
 public:
  // `dataPath`'s side file: ".<name>.zmpi-shfp-<token>" in the same directory. Every rank
  // must pass the same token and initial position (the file's opener agrees on them).
  SharedPointer(const std::string& dataPath, std::uint64_t token, std::uint64_t initial);

  // Moves the pointer by `delta` bytes; returns where it was.
  std::uint64_t fetchAdd(std::uint64_t delta);
  std::uint64_t get();
  void set(std::uint64_t position);
  // Back to 0 if the side file exists (MPI_File_set_view), without creating it.
  void reset();
  // Deletes the side file if it exists (MPI_File_close, on one rank after all closed).
  void remove();

  const std::string& path() const { return path_; }

 private:
  // Runs `update(old) -> new` under the lock; returns old.
  template <typename Update>
  std::uint64_t locked(Update&& update);
  PosixFile& open();

  std::string path_;
  std::uint64_t initial_;
  std::mutex mutex_;  // byte-range locks do not exclude threads sharing one descriptor
  std::optional<PosixFile> file_;
};

}  // namespace zmpi::mpi::io
