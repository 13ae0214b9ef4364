#pragma once
// Buffers for message payloads that outlive the place they arrived in: an eager message
// nobody has asked for yet (copied out of a same-host ring or a tcp connection's staging
// buffer) and a bulk frame read before its receive. A root that broadcasts in a loop
// makes its receivers allocate and free such a buffer per message; from malloc that
// meant, once a window's worth were queued and then freed, glibc giving the top of the
// heap back to the kernel (the trim threshold, 128 KiB) and page-faulting it in again for
// the next burst: a 2-rank forced-tcp bcast of 32 KiB in a loop took 85-100 us a call,
// 16 us with the trim threshold raised (Open MPI tcp 17-21). So payloads of kMinBytes and
// more come from per-size-class free lists here instead, each kept to kCachedBytesPerClass
// (memory the process had in use at once anyway); smaller ones stay with malloc, whose
// per-thread caches serve them without touching the heap's top.
#include <cstddef>
#include <zmq.hpp>

namespace zmpi::transport {

class PayloadPool {
 public:
  static constexpr std::size_t kMinBytes = 4 * 1024;
  static constexpr std::size_t kMaxBytes = 256 * 1024;  // above the eager limits
  static constexpr std::size_t kCachedBytesPerClass = 1024 * 1024;

  // A message of `bytes` uninitialised bytes; from the pool where the size suits it.
  static zmq::message_t take(std::size_t bytes);
  // A message holding a copy of `bytes` bytes at `data`.
  static zmq::message_t copyOf(const void* data, std::size_t bytes);

  // Buffers cached now, for tests.
  static std::size_t cachedBuffers();
};

}  // namespace zmpi::transport
