#pragma once
// The buffer attached with MPI_Buffer_attach: buffered sends copy their data out of the
// user's buffer at once and account the bytes (plus MPI_BSEND_OVERHEAD) against the
// attached size, so a program that overruns its buffer gets MPI_ERR_BUFFER, as MPI says.
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace zmpi::mpi::capi {

class BsendBuffer {
 public:
  static BsendBuffer& instance();

  void attach(void* buffer, int size);     // MPI_ERR_BUFFER if one is attached already
  void detach(void** buffer, int* size);   // waits until every buffered send has left
  void reserve(std::size_t bytes);         // MPI_ERR_BUFFER if it does not fit
  void release(std::size_t bytes);

 private:
  std::mutex mutex_;
  std::condition_variable drained_;
  void* buffer_ = nullptr;
  std::size_t size_ = 0;
  std::size_t used_ = 0;
  bool attached_ = false;
};

}  // namespace zmpi::mpi::capi
