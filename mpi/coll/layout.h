#pragma once
// Where a data-movement collective's bytes live. Algorithms move bytes: part i of a buffer
// (`count` elements of a datatype at a byte displacement) is the byte range pieces[i] of
// one area. When every part's datatype is contiguous the area is the program's buffer
// itself (no copy); otherwise it is schedule scratch with the parts packed back to back,
// packed by an action before the transfers (send side) and unpacked by one after them
// (receive side). Packing happens once per call, never per message.
#include <cstddef>
#include <vector>

#include "mpi/coll/schedule.h"
#include "mpi/datatype/datatype.h"

namespace zmpi::mpi::coll {

struct Part {
  const Datatype* type;
  std::size_t count;
  std::ptrdiff_t displacement;  // bytes from the buffer address
  std::size_t bytes() const { return count * type->size(); }
};

struct Piece {
  std::ptrdiff_t offset;  // from the area's start
  std::size_t bytes;
};

struct Area {
  char* data = nullptr;
  std::vector<Piece> pieces;
  bool direct = false;  // the program's buffer itself
  char* at(std::size_t part) const { return data + pieces[part].offset; }
};

// `parts` parts of `count` elements each, back to back (gather, alltoall, ...).
std::vector<Part> uniformParts(const Datatype& type, std::size_t count, std::size_t parts);
// Parts at element displacements (the v-variants).
std::vector<Part> variableParts(const Datatype& type, const int* counts, const int* displacements, int parts);

// The area for `parts` of `base`; takes no action yet. Holds derived types for the
// schedule's lifetime.
Area areaFor(Schedule& schedule, const void* base, const std::vector<Part>& parts);
// Adds an action packing part `only` (or every part when only < 0) of `base` into a
// non-direct area. Call before adding the transfers that read it.
void pack(Schedule& schedule, const Area& area, const void* base, const std::vector<Part>& parts, int only = -1);
// Adds an action unpacking every part of a non-direct area into `base`, except part
// `skip` (a part the program's buffer already holds: MPI_IN_PLACE).
void unpack(Schedule& schedule, const Area& area, void* base, const std::vector<Part>& parts, int skip = -1);

// Adds an action copying `bytes` bytes; nothing when the addresses coincide or either is
// null (a part MPI_IN_PLACE leaves where it is).
void copyBytes(Schedule& schedule, const char* from, char* to, std::size_t bytes);

}  // namespace zmpi::mpi::coll
