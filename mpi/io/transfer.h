#pragma once
// Moving data between a memory buffer (count elements of a datatype) and a file view's
// byte stream: the buffer side is packed/unpacked once (contiguous buffers are used in
// place), the file side is the mapper's segments, one pread/pwrite each.
#include <cstddef>
#include <cstdint>

#include "mpi/datatype/datatype.h"
#include "mpi/io/posix_file.h"
#include "mpi/io/view_mapper.h"

namespace zmpi::mpi::io {

struct Transfer {
  const PosixFile& file;
  const ViewMapper& mapper;
  // Holds a byte-range lock over the whole access (MPI_File_set_atomicity(true)).
  bool atomic = false;
};

// Reads `count` elements of `type` into `buffer` from stream byte `position`; returns the
// bytes read, fewer than count * type.size() when the file ends first (the buffer then
// holds that many bytes' worth of the type map, as a short message would).
std::uint64_t readView(const Transfer& io, std::uint64_t position, void* buffer, std::size_t count,
                       const Datatype& type);

// Writes `count` elements of `type` from `buffer` at stream byte `position`; returns the
// bytes written (all of them, or it throws).
std::uint64_t writeView(const Transfer& io, std::uint64_t position, const void* buffer, std::size_t count,
                        const Datatype& type);

}  // namespace zmpi::mpi::io
