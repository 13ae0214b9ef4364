#pragma once
// Where an operation's elements lie in the target window: the target datatype, repeated
// `count` times at its extent, flattened into byte blocks relative to the target address.
// The origin computes it (it knows the target datatype; the target may not have it) and
// sends it with the operation; the target scatters packed origin data into it, or gathers
// its bytes from it, without ever seeing the datatype.
#include <cstddef>
#include <span>
#include <vector>

#include "mpi/datatype/datatype.h"

namespace zmpi::mpi::rma {

class TargetLayout {
 public:
  TargetLayout() = default;
  // From blocks read off the wire, as they are (no merging).
  explicit TargetLayout(std::vector<TypeBlock> blocks);

  // Type-map order, adjacent blocks merged.
  std::span<const TypeBlock> blocks() const {
    return many_.empty() ? std::span<const TypeBlock>(&single_, bytes > 0 ? 1 : 0) : std::span<const TypeBlock>(many_);
  }
  // Appends a block, merged into the last one where it continues it.
  void add(std::ptrdiff_t offset, std::size_t length);
  void reserve(std::size_t blocks) { many_.reserve(blocks); }

  std::size_t bytes = 0;       // total length: the packed size of the data
  std::ptrdiff_t lowest = 0;   // lowest byte touched, from the target address
  std::ptrdiff_t highest = 0;  // one past the highest byte touched

 private:
  // The one block of a contiguous target (every operation on a contiguous type) needs no
  // allocation; a second block moves both into `many_`.
  TypeBlock single_{0, 0};
  std::vector<TypeBlock> many_;
};

TargetLayout layoutOf(const Datatype& type, std::size_t count);

// Packed bytes <-> the blocks at `base`. The blocks' lengths add up to the packed size.
void scatterPacked(std::span<const TypeBlock> blocks, const char* packed, char* base);
void gatherPacked(std::span<const TypeBlock> blocks, const char* base, char* packed);

}  // namespace zmpi::mpi::rma
