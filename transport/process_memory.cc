#include "transport/process_memory.h"

#include <sys/stat.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <climits>

namespace zmpi::transport {

namespace {

// Moves the pieces in batches of up to IOV_MAX remote vectors. A short count (a page that
// stopped the kernel part-way) resumes at the first byte not moved; the next call then
// reports the fault.
template <typename Call>
bool movePieces(const RemotePiece* pieces, std::size_t count, char* packed, Call call) {
  constexpr std::size_t kBatch = IOV_MAX;
  iovec remote[kBatch];
  std::size_t piece = 0;
  std::size_t within = 0;  // bytes of pieces[piece] already moved
  while (piece < count) {
    std::size_t n = 0;
    std::size_t total = 0;
    for (std::size_t i = piece; i < count && n < kBatch; ++i, ++n) {
      const std::size_t skip = i == piece ? within : 0;
      // NOLINTNEXTLINE(performance-no-int-to-ptr): an address in the other process, for the kernel only
      remote[n] = {reinterpret_cast<void*>(static_cast<uintptr_t>(pieces[i].address + skip)), pieces[i].bytes - skip};
      total += pieces[i].bytes - skip;
    }
    if (total == 0) {
      piece += n;
      within = 0;
      continue;
    }
    iovec local{packed, total};
    const ssize_t moved = call(&local, remote, n);
    if (moved < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (moved == 0) {
      errno = 0;
      return false;
    }
    packed += moved;
    // The kernel never reports more than it was asked for; the bound on piece says so
    // to the reader (and to the analyzer) rather than trusting it silently.
    auto left = std::min(static_cast<std::size_t>(moved), total);
    while (left > 0 && piece < count) {
      const std::size_t rest = pieces[piece].bytes - within;
      if (left < rest) {
        within += left;
        break;
      }
      left -= rest;
      ++piece;
      within = 0;
    }
    while (piece < count && pieces[piece].bytes == within) {
      ++piece;
      within = 0;
    }
  }
  return true;
}

}  // namespace

bool readProcessPieces(int pid, const RemotePiece* pieces, std::size_t count, void* packed) {
  return movePieces(pieces, count, static_cast<char*>(packed), [&](iovec* local, iovec* remote, std::size_t n) {
    return ::process_vm_readv(pid, local, 1, remote, n, 0);
  });
}

bool writeProcessPieces(int pid, const RemotePiece* pieces, std::size_t count, const void* packed) {
  // process_vm_writev reads the local vector only; its iovec is not const.
  auto* bytes = const_cast<char*>(static_cast<const char*>(packed));
  return movePieces(pieces, count, bytes, [&](iovec* local, iovec* remote, std::size_t n) {
    return ::process_vm_writev(pid, local, 1, remote, n, 0);
  });
}

bool readProcessMemory(int pid, uint64_t remoteAddress, void* destination, std::size_t bytes) {
  const RemotePiece piece{remoteAddress, bytes};
  return readProcessPieces(pid, &piece, 1, destination);
}

uint64_t pidNamespace() {
  struct stat info {};
  if (::stat("/proc/self/ns/pid", &info) != 0) return 0;
  return static_cast<uint64_t>(info.st_ino);
}

}  // namespace zmpi::transport
