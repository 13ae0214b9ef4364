#include "mpi/capi/bsend_buffer.h"

#include <mpi.h>

#include <string>

#include "mpi/core/error.h"

namespace zmpi::mpi::capi {

BsendBuffer& BsendBuffer::instance() {
  static BsendBuffer* buffer = new BsendBuffer();
  return *buffer;
}

void BsendBuffer::attach(void* buffer, int size) {
  std::lock_guard lock(mutex_);
  if (attached_) fail(MPI_ERR_BUFFER, "a buffer is already attached (detach it first)");
  if (size < 0) fail(MPI_ERR_ARG, "buffer size is negative");
  buffer_ = buffer;
  size_ = static_cast<std::size_t>(size);
  attached_ = true;
}

void BsendBuffer::detach(void** buffer, int* size) {
  std::unique_lock lock(mutex_);
  drained_.wait(lock, [&] { return used_ == 0; });
  *buffer = attached_ ? buffer_ : nullptr;
  *size = attached_ ? static_cast<int>(size_) : 0;
  buffer_ = nullptr;
  size_ = 0;
  attached_ = false;
}

void BsendBuffer::reserve(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  const std::size_t needed = bytes + MPI_BSEND_OVERHEAD;
  if (!attached_ || used_ + needed > size_) {
    fail(MPI_ERR_BUFFER, "buffered send of " + std::to_string(bytes) + " bytes does not fit the attached buffer (" +
                             std::to_string(size_) + " bytes, " + std::to_string(used_) + " in use)");
  }
  used_ += needed;
}

void BsendBuffer::release(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  used_ -= bytes + MPI_BSEND_OVERHEAD;
  if (used_ == 0) drained_.notify_all();
}

}  // namespace zmpi::mpi::capi
