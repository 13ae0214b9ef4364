#include "mpi/rma/target_layout.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace zmpi::mpi::rma {

TargetLayout::TargetLayout(std::vector<TypeBlock> blocks) : many_(std::move(blocks)) {
  if (many_.empty()) return;
  lowest = many_.front().offset;
  highest = lowest;
  for (const TypeBlock& block : many_) {
    bytes += block.length;
    lowest = std::min(lowest, block.offset);
    highest = std::max(highest, block.offset + static_cast<std::ptrdiff_t>(block.length));
  }
}

void TargetLayout::add(std::ptrdiff_t offset, std::size_t length) {
  if (length == 0) return;
  const auto end = offset + static_cast<std::ptrdiff_t>(length);
  if (bytes == 0) {
    single_ = {offset, length};
    lowest = offset;
    highest = end;
    bytes = length;
    return;
  }
  lowest = std::min(lowest, offset);
  highest = std::max(highest, end);
  bytes += length;
  TypeBlock& last = many_.empty() ? single_ : many_.back();
  if (last.offset + static_cast<std::ptrdiff_t>(last.length) == offset) {
    last.length += length;
    return;
  }
  if (many_.empty()) many_.push_back(single_);
  many_.push_back({offset, length});
}

TargetLayout layoutOf(const Datatype& type, std::size_t count) {
  TargetLayout layout;
  if (count == 0 || type.size() == 0) return layout;
  if (type.contiguous()) {
    layout.add(0, count * type.size());
    return layout;
  }
  layout.reserve(count * type.blocks().size());
  for (std::size_t i = 0; i < count; ++i) {
    const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(i) * type.extent();
    for (const TypeBlock& block : type.blocks()) layout.add(base + block.offset, block.length);
  }
  return layout;
}

void scatterPacked(std::span<const TypeBlock> blocks, const char* packed, char* base) {
  for (const TypeBlock& block : blocks) {
    std::memcpy(base + block.offset, packed, block.length);
    packed += block.length;
  }
}

void gatherPacked(std::span<const TypeBlock> blocks, const char* base, char* packed) {
  for (const TypeBlock& block : blocks) {
    std::memcpy(packed, base + block.offset, block.length);
    packed += block.length;
  }
}

}  // namespace zmpi::mpi::rma
