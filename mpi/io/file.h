#pragma once
// An open MPI file: the POSIX file, the communicator it was opened on (a private dup, so
// the file's collective steps never match the program's messages), the access mode, the
// view, the individual and shared file pointers, the error handler and the hints.
//
// The individual pointer is kept in bytes of the view's stream (as ROMIO does), so a read
// cut short by the end of the file leaves it exactly after the bytes read; programs see it
// in etypes (MPI_File_get_position).
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/core/errhandler.h"
#include "mpi/core/handle.h"
#include "mpi/io/posix_file.h"
#include "mpi/io/shared_pointer.h"
#include "mpi/io/transfer.h"
#include "mpi/io/view.h"

namespace zmpi::mpi::io {

using Hints = std::vector<std::pair<std::string, std::string>>;

class File {
 public:
  // `sharedToken` names the shared file pointer's side file and `start` is where both
  // pointers start (the end of the file for MPI_MODE_APPEND): the same on every rank.
  File(std::unique_ptr<Communicator> comm, PosixFile posix, int amode, Errhandler* errhandler,
       std::uint64_t sharedToken, std::uint64_t start);
  ~File();
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  MPI_File handle() { return &handle_; }
  Communicator& comm() { return *comm_; }
  const PosixFile& posix() const { return posix_; }
  PosixFile& posix() { return posix_; }
  const std::string& path() const { return posix_.path(); }
  int amode() const { return amode_; }
  bool hasMode(int mode) const { return (amode_ & mode) != 0; }

  Errhandler* errhandler() const { return errhandler_.get(); }
  void setErrhandler(Errhandler* handler) { errhandler_.reset(handler); }

  // The view (shared, so a call in progress keeps the one it started with); setting it
  // moves the individual pointer to the view's start.
  std::shared_ptr<const FileView> view() const;
  void setView(FileView view);

  bool atomic() const { return atomic_; }
  void setAtomic(bool atomic) { atomic_ = atomic; }

  // Reads/writes through the current view at stream byte `position`.
  std::uint64_t read(std::uint64_t position, void* buffer, std::size_t count, const Datatype& type);
  std::uint64_t write(std::uint64_t position, const void* buffer, std::size_t count, const Datatype& type);

  // Individual file pointer, in stream bytes.
  std::uint64_t position() const;
  void setPosition(std::uint64_t position);
  // Reads/writes at the individual pointer and advances it by the bytes moved, as one step
  // (two threads using one file handle each get their own range).
  std::uint64_t readNext(void* buffer, std::size_t count, const Datatype& type);
  std::uint64_t writeNext(const void* buffer, std::size_t count, const Datatype& type);

  SharedPointer& shared() { return shared_; }

  Hints hints;

  // The one split collective (MPI_File_*_begin) allowed in progress on a file: its status,
  // and which call began it, for the matching *_end.
  std::optional<std::pair<std::string, MPI_Status>> splitCollective;

 private:
  ompi_file_t handle_;
  std::unique_ptr<Communicator> comm_;
  PosixFile posix_;
  int amode_;
  ErrhandlerRef errhandler_;
  bool atomic_ = false;
  SharedPointer shared_;
  mutable std::mutex mutex_;  // guards view_ and position_
  std::shared_ptr<const FileView> view_;
  std::uint64_t position_ = 0;
};

// Throws MpiError(MPI_ERR_FILE) for MPI_FILE_NULL and invalid handles.
File* fileOf(MPI_File handle);

}  // namespace zmpi::mpi::io
