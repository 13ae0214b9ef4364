#include "mpi/rma/target_layout.h"

#include <algorithm>
#include <cstring>

namespace zmpi::mpi::rma {

TargetLayout layoutOf(const Datatype& type, std::size_t count) {
  TargetLayout layout;
  if (count == 0 || type.size() == 0) return layout;
  auto add = [&](std::ptrdiff_t offset, std::size_t length) {
    if (length == 0) return;
    if (!layout.blocks.empty()) {
      TypeBlock& last = layout.blocks.back();
      if (last.offset + static_cast<std::ptrdiff_t>(last.length) == offset) {
        last.length += length;
        return;
      }
    }
    layout.blocks.push_back({offset, length});
  };
  if (type.contiguous()) {
    add(0, count * type.size());
  } else {
    layout.blocks.reserve(count * type.blocks().size());
    for (std::size_t i = 0; i < count; ++i) {
      const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(i) * type.extent();
      for (const TypeBlock& block : type.blocks()) add(base + block.offset, block.length);
    }
  }
  layout.lowest = layout.blocks.front().offset;
  layout.highest = layout.lowest;
  for (const TypeBlock& block : layout.blocks) {
    layout.bytes += block.length;
    layout.lowest = std::min(layout.lowest, block.offset);
    layout.highest = std::max(layout.highest, block.offset + static_cast<std::ptrdiff_t>(block.length));
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
