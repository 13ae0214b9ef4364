// The communicator queries every program calls first.
#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

extern "C" {

int PMPI_Comm_size(MPI_Comm comm, int* size) {
  return guardedComm("MPI_Comm_size", comm, [&] {
    Communicator& c = commArg(comm);
    pointerArg(size, "size");
    *size = c.size();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_size)

int PMPI_Comm_rank(MPI_Comm comm, int* rank) {
  return guardedComm("MPI_Comm_rank", comm, [&] {
    Communicator& c = commArg(comm);
    pointerArg(rank, "rank");
    *rank = c.rank();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_rank)

}  // extern "C"
