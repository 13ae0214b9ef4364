#include "mpi/io/collective.h"

#include <mpi.h>

#include "mpi/coll/collectives.h"
#include "mpi/core/error.h"
#include "mpi/datatype/predefined.h"

namespace zmpi::mpi::io {

void barrier(Communicator& comm) { coll::run(*coll::planBarrier(comm)); }

std::vector<std::int64_t> allgather(Communicator& comm, std::int64_t value) {
  std::vector<std::int64_t> all(static_cast<std::size_t>(comm.size()));
  const int bytes = static_cast<int>(sizeof value);
  coll::run(*coll::planAllgather(comm, &value, bytes, byteType(), all.data(), bytes, *byteType()));
  return all;
}

void agree(Communicator& comm, const Outcome& mine, const std::string& what) {
  const std::vector<std::int64_t> codes = allgather(comm, mine.code);
  if (mine.code != MPI_SUCCESS) fail(mine.code, mine.message);
  for (std::size_t rank = 0; rank < codes.size(); ++rank) {
    if (codes[rank] != MPI_SUCCESS) {
      fail(static_cast<int>(codes[rank]),
           what + " failed on rank " + std::to_string(rank) + " of the file's communicator");
    }
  }
}

}  // namespace zmpi::mpi::io
