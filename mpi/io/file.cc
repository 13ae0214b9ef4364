#include "mpi/io/file.h"

#include "mpi/core/error.h"

namespace zmpi::mpi::io {

File::File(std::unique_ptr<Communicator> comm, PosixFile posix, int amode, Errhandler* errhandler,
           std::uint64_t sharedToken, std::uint64_t start)
    : comm_(std::move(comm)),
      posix_(std::move(posix)),
      amode_(amode),
      errhandler_(errhandler),
      shared_(posix_.path(), sharedToken, start),
      view_(std::make_shared<const FileView>()),
      position_(start) {
  bindHandle(&handle_, HandleKind::File, this);
}

// A stale handle used after MPI_File_close is then an invalid handle, not a dangling one.
File::~File() { retireHandle(handle_.header); }

std::shared_ptr<const FileView> File::view() const {
  std::lock_guard lock(mutex_);
  return view_;
}

void File::setView(FileView view) {
  std::lock_guard lock(mutex_);
  view_ = std::make_shared<const FileView>(std::move(view));
  position_ = 0;
}

std::uint64_t File::read(std::uint64_t position, void* buffer, std::size_t count, const Datatype& type) {
  const auto current = view();
  return readView({posix_, current->mapper(), atomic_}, position, buffer, count, type);
}

std::uint64_t File::write(std::uint64_t position, const void* buffer, std::size_t count, const Datatype& type) {
  const auto current = view();
  return writeView({posix_, current->mapper(), atomic_}, position, buffer, count, type);
}

std::uint64_t File::position() const {
  std::lock_guard lock(mutex_);
  return position_;
}

void File::setPosition(std::uint64_t position) {
  std::lock_guard lock(mutex_);
  position_ = position;
}

std::uint64_t File::readNext(void* buffer, std::size_t count, const Datatype& type) {
  std::lock_guard lock(mutex_);
  const std::uint64_t bytes = readView({posix_, view_->mapper(), atomic_}, position_, buffer, count, type);
  position_ += bytes;
  return bytes;
}

std::uint64_t File::writeNext(const void* buffer, std::size_t count, const Datatype& type) {
  std::lock_guard lock(mutex_);
  const std::uint64_t bytes = writeView({posix_, view_->mapper(), atomic_}, position_, buffer, count, type);
  position_ += bytes;
  return bytes;
}

File* fileOf(MPI_File handle) {
  if (handle == MPI_FILE_NULL) fail(MPI_ERR_FILE, "file is MPI_FILE_NULL");
  if (!isHandleOf(handle, HandleKind::File) || implOf<File>(handle) == nullptr)
    fail(MPI_ERR_FILE, "invalid file handle");
  return implOf<File>(handle);
}

}  // namespace zmpi::mpi::io
