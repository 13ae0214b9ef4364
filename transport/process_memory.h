#pragma once
// Single-copy reads from another process of the same host (Linux cross-memory attach,
// process_vm_readv): a large same-host message is copied once, by its receiver, straight
// from its sender's buffer, instead of into a shared ring and out of it again.
#include <cstddef>
#include <cstdint>

namespace zmpi::transport {

// Reads `bytes` bytes at `remoteAddress` in process `pid` into `destination`. True if every
// byte was read. False, with errno set, if the kernel refuses -- no permission (the ptrace
// rules: another user, Yama's ptrace_scope, a container's seccomp profile), no such
// process, an address the process does not map -- or, with errno 0, a read that stopped
// short.
bool readProcessMemory(int pid, uint64_t remoteAddress, void* destination, std::size_t bytes);

// A run of bytes in another process.
struct RemotePiece {
  uint64_t address;
  std::size_t bytes;
};

// Reads the `count` pieces of process `pid`, in order, into `packed` (their bytes back to
// back); writes `packed` into them. True if every byte moved; else false as above. For
// one-sided windows of the program's memory on one host (mpi/rma): an origin reads and
// writes the target's window itself.
bool readProcessPieces(int pid, const RemotePiece* pieces, std::size_t count, void* packed);
bool writeProcessPieces(int pid, const RemotePiece* pieces, std::size_t count, const void* packed);

// This process's pid namespace (the inode of /proc/self/ns/pid), or 0 if unknown: a pid
// names the same process in two processes only when their namespaces are the same, and
// ranks that share a host name and /dev/shm (containers) need not share one.
uint64_t pidNamespace();

}  // namespace zmpi::transport
