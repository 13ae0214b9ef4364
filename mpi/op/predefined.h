#pragma once
// The predefined reduction operations (MPI_SUM, MPI_MAXLOC, ...), bound to their handle
// symbols once per process.
namespace zmpi::mpi {

void bindPredefinedOps();

}  // namespace zmpi::mpi
