#include "mpi/io/shared_pointer.h"

#include <fcntl.h>

#include <cstdio>
#include <filesystem>

namespace zmpi::mpi::io {

SharedPointer::SharedPointer(const std::string& dataPath, std::uint64_t token, std::uint64_t initial)
    : initial_(initial) {
  const std::filesystem::path data(dataPath);
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".zmpi-shfp-%016llx", static_cast<unsigned long long>(token));
  path_ = (data.parent_path() / ("." + data.filename().string() + suffix)).string();
}

PosixFile& SharedPointer::open() {
  if (!file_) file_.emplace(path_, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  return *file_;
}

template <typename Update>
std::uint64_t SharedPointer::locked(Update&& update) {
  std::lock_guard guard(mutex_);
  PosixFile& file = open();
  PosixFile::RangeLock lock(file, 0, sizeof(std::uint64_t), true);
  std::uint64_t position = 0;
  if (file.readAt(0, &position, sizeof position) != sizeof position) position = initial_;
  const std::uint64_t next = update(position);
  if (next != position) file.writeAt(0, &next, sizeof next);
  return position;
}

std::uint64_t SharedPointer::fetchAdd(std::uint64_t delta) {
  return locked([&](std::uint64_t position) { return position + delta; });
}

std::uint64_t SharedPointer::get() {
  return locked([](std::uint64_t position) { return position; });
}

void SharedPointer::set(std::uint64_t position) {
  locked([&](std::uint64_t) { return position; });
}

void SharedPointer::reset() {
  {
    std::lock_guard guard(mutex_);
    initial_ = 0;
  }
  if (file_ || std::filesystem::exists(path_)) set(0);
}

void SharedPointer::remove() {
  std::lock_guard guard(mutex_);
  file_.reset();
  std::error_code ignored;  // another rank's close, or no shared-pointer use at all
  std::filesystem::remove(path_, ignored);
}

}  // namespace zmpi::mpi::io
