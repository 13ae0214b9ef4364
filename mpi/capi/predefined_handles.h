#pragma once
// Binding the predefined handle symbols (MPI_COMM_WORLD, MPI_INT, MPI_SUM, ...) to zmpi
// objects, and the finalize barrier.
namespace zmpi::mpi {
class World;
}

namespace zmpi::mpi::capi {

// Datatypes, ops, error handlers and the *_NULL handles: once per process.
void bindPredefinedHandles();
// MPI_COMM_WORLD, MPI_COMM_SELF and MPI_GROUP_EMPTY for this world (MPI_Init).
void bindWorldHandles(World& world);
void unbindWorldHandles();
// All ranks reach MPI_Finalize before any tears down its sockets, so no late message is
// dropped.
void runFinalizeBarrier(World& world);

}  // namespace zmpi::mpi::capi
