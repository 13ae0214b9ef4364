#pragma once
// The collective window constructors (MPI 3.1 section 11.2) and MPI_Win_free. Each
// constructor duplicates the communicator (a window's fences and barriers never match the
// program's collectives), registers the window, then allgathers every rank's window size,
// displacement unit and id: when it returns, any rank may access any other's window.
#include <mpi.h>

#include <memory>

#include "mpi/comm/communicator.h"
#include "mpi/rma/window.h"

namespace zmpi::mpi::rma {

// MPI_Win_create: the program's memory at `base`.
std::shared_ptr<Window> createWindow(Communicator& comm, void* base, MPI_Aint size, int dispUnit);
// MPI_Win_allocate: memory the window owns (window->base()).
std::shared_ptr<Window> allocateWindow(Communicator& comm, MPI_Aint size, int dispUnit);
// MPI_Win_allocate_shared: the ranks of each host share one POSIX shared-memory segment,
// their parts contiguous in rank order; each maps the others' parts (sharedQuery).
std::shared_ptr<Window> allocateSharedWindow(Communicator& comm, MPI_Aint size, int dispUnit);
// MPI_Win_create_dynamic: no memory until MPI_Win_attach; displacements are addresses.
std::shared_ptr<Window> createDynamicWindow(Communicator& comm);

// MPI_Win_free: collective; the window is gone when it returns.
void freeWindow(Window& window);

}  // namespace zmpi::mpi::rma
