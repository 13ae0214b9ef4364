#pragma once
// Bytes one call needs for a moment (packing an operand, keeping an old value): on the
// stack up to `Inline`, on the heap beyond. The one-sided operations on a shared window
// take a fraction of a microsecond, and a malloc/free pair is a fair part of that.
#include <cstddef>
#include <memory>

namespace zmpi::mpi {

template <std::size_t Inline>
class ScratchBytes {
 public:
  // cppcheck-suppress uninitMemberVar ; inline_ is scratch, written before it is read
  explicit ScratchBytes(std::size_t bytes) : size_(bytes) {
    if (bytes > Inline) heap_ = std::make_unique_for_overwrite<char[]>(bytes);
  }
  ScratchBytes(const ScratchBytes&) = delete;
  ScratchBytes& operator=(const ScratchBytes&) = delete;

  char* data() { return heap_ ? heap_.get() : inline_; }
  std::size_t size() const { return size_; }

 private:
  alignas(std::max_align_t) char inline_[Inline];
  std::unique_ptr<char[]> heap_;
  std::size_t size_;
};

}  // namespace zmpi::mpi
