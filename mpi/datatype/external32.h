#pragma once
// The "external32" data representation (MPI 3.1 section 13.5.2) for MPI_Pack_external:
// big-endian, IEEE formats, and the standard's fixed sizes, which are not always the
// native ones (MPI_LONG and MPI_UNSIGNED_LONG are 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE a
// 16-byte IEEE quad). Integers that do not fit the external size are truncated.
#include <cstddef>

#include "mpi/datatype/datatype.h"

namespace zmpi::mpi {

// Bytes of `count` elements of `type` in external32.
std::size_t external32Size(const Datatype& type, std::size_t count);
// Converts `count` elements at `base` (user layout) into external32 at `out`.
void packExternal32(const Datatype& type, const void* base, std::size_t count, void* out);
// Converts `count` elements of external32 at `in` into user layout at `base`.
void unpackExternal32(const Datatype& type, const void* in, std::size_t count, void* base);

}  // namespace zmpi::mpi
