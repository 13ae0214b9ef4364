#include "mpi/coll/reduction.h"

#include <algorithm>
#include <cstring>

namespace zmpi::mpi::coll {

Reduction::Reduction(const Op& op, const Datatype& type, std::size_t count)
    : op_(&op), type_(&type), count_(count), extent_(type.extent()) {
  // With a negative extent the last element lies lowest; the span starts there.
  const std::ptrdiff_t last = count > 0 ? static_cast<std::ptrdiff_t>(count - 1) * extent_ : 0;
  lo_ = type.trueLb() + std::min<std::ptrdiff_t>(0, last);
  splittable_ = extent_ > 0 && type.trueExtent() > 0 && type.trueExtent() <= extent_;
}

std::size_t Reduction::spanBytes(std::size_t elements) const {
  if (elements == 0) return 0;
  const std::ptrdiff_t stride = static_cast<std::ptrdiff_t>(elements - 1) * extent_;
  return static_cast<std::size_t>(type_->trueExtent() + (stride < 0 ? -stride : stride));
}

std::size_t Reduction::pieceElements(std::size_t segmentBytes) const {
  if (segmentBytes == 0 || !splittable_) return std::max<std::size_t>(count_, 1);
  return std::max<std::size_t>(1, kCombinePieces * segmentBytes / static_cast<std::size_t>(extent_));
}

void Reduction::combine(const char* in, char* inout, std::size_t elements) const {
  if (elements == 0) return;
  op_->apply(in - lo_, inout - lo_, elements, *type_);
}

void Reduction::copyElements(const char* from, char* to, std::size_t elements) const {
  if (elements == 0 || from == to) return;
  if (type_->contiguous()) {
    std::memcpy(to, from, elements * type_->size());
    return;
  }
  const char* src = from - lo_;
  char* dst = to - lo_;
  for (std::size_t i = 0; i < elements; ++i, src += extent_, dst += extent_) {
    for (const TypeBlock& block : type_->blocks()) std::memcpy(dst + block.offset, src + block.offset, block.length);
  }
}

}  // namespace zmpi::mpi::coll
