#include "mpi/io/transfer.h"

#include <memory>
#include <vector>

namespace zmpi::mpi::io {
namespace {

// The lock covering every file byte of stream bytes [position, position + bytes).
std::unique_ptr<PosixFile::RangeLock> lockFor(const Transfer& io, std::uint64_t position, std::uint64_t bytes,
                                              bool exclusive) {
  if (!io.atomic || bytes == 0) return nullptr;
  const std::int64_t first = io.mapper.fileOffsetOf(position);
  const std::int64_t end = io.mapper.fileOffsetOf(position + bytes - 1) + 1;
  return std::make_unique<PosixFile::RangeLock>(io.file, first, end - first, exclusive);
}

}  // namespace

std::uint64_t readView(const Transfer& io, std::uint64_t position, void* buffer, std::size_t count,
                       const Datatype& type) {
  const std::uint64_t bytes = static_cast<std::uint64_t>(count) * type.size();
  if (bytes == 0) return 0;
  std::vector<char> staging;
  char* data = static_cast<char*>(buffer);
  if (!type.contiguous()) {
    staging.resize(bytes);
    data = staging.data();
  }
  std::uint64_t done = 0;
  {
    auto lock = lockFor(io, position, bytes, false);
    io.mapper.forEachSegment(position, bytes, [&](const FileSegment& segment) {
      const std::uint64_t got = io.file.readAt(segment.offset, data + done, segment.length);
      done += got;
      return got == segment.length;  // short: end of file, and later segments lie beyond it
    });
  }
  if (!type.contiguous()) type.unpack(staging.data(), done, buffer);
  return done;
}

std::uint64_t writeView(const Transfer& io, std::uint64_t position, const void* buffer, std::size_t count,
                        const Datatype& type) {
  const std::uint64_t bytes = static_cast<std::uint64_t>(count) * type.size();
  if (bytes == 0) return 0;
  std::vector<char> staging;
  const char* data = static_cast<const char*>(buffer);
  if (!type.contiguous()) {
    staging.resize(bytes);
    type.pack(buffer, count, staging.data());
    data = staging.data();
  }
  std::uint64_t done = 0;
  auto lock = lockFor(io, position, bytes, true);
  io.mapper.forEachSegment(position, bytes, [&](const FileSegment& segment) {
    io.file.writeAt(segment.offset, data + done, segment.length);
    done += segment.length;
    return true;
  });
  return done;
}

}  // namespace zmpi::mpi::io
