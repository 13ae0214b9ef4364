#include "transport/process_memory.h"

#include <sys/stat.h>
#include <sys/uio.h>

#include <cerrno>

namespace zmpi::transport {

bool readProcessMemory(int pid, uint64_t remoteAddress, void* destination, std::size_t bytes) {
  auto* to = static_cast<char*>(destination);
  std::size_t done = 0;
  // One call normally moves everything; a partial count means a page in the range stopped
  // it (e.g. unmapped since), and the next call then fails with EFAULT.
  while (done < bytes) {
    iovec local{to + done, bytes - done};
    // NOLINTNEXTLINE(performance-no-int-to-ptr): an address in the other process, for the kernel only
    void* remoteBytes = reinterpret_cast<void*>(static_cast<uintptr_t>(remoteAddress + done));
    iovec remote{remoteBytes, bytes - done};
    const ssize_t n = ::process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) {
      errno = 0;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

uint64_t pidNamespace() {
  struct stat info {};
  if (::stat("/proc/self/ns/pid", &info) != 0) return 0;
  return static_cast<uint64_t>(info.st_ino);
}

}  // namespace zmpi::transport
