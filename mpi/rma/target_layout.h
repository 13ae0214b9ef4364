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

struct TargetLayout {
  std::vector<TypeBlock> blocks;  // type-map order, adjacent blocks merged
  std::size_t bytes = 0;          // total length: the packed size of the data
  std::ptrdiff_t lowest = 0;      // lowest byte touched, from the target address
  std::ptrdiff_t highest = 0;     // one past the highest byte touched
};

TargetLayout layoutOf(const Datatype& type, std::size_t count);

// Packed bytes <-> the blocks at `base`. The blocks' lengths add up to the packed size.
void scatterPacked(std::span<const TypeBlock> blocks, const char* packed, char* base);
void gatherPacked(std::span<const TypeBlock> blocks, const char* base, char* packed);

}  // namespace zmpi::mpi::rma
