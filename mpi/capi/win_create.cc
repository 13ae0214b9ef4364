// Window construction and destruction: MPI_Win_create, _allocate, _allocate_shared,
// _create_dynamic (+ attach/detach), _shared_query and _free. Errors in the constructors
// go to the communicator's error handler (there is no window yet); the rest to the window's.
#include "mpi/capi/validate.h"
#include "mpi/capi/win_entry.h"
#include "mpi/core/info.h"
#include "mpi/rma/window_create.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

// zmpi takes no window hints yet (no_locks, accumulate_ordering, ...): the info is checked
// and otherwise ignored, which the standard allows.
void infoArg(MPI_Info info) { infoOrNull(info); }

}  // namespace

extern "C" {

int PMPI_Win_create(void* base, MPI_Aint size, int dispUnit, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return guardedComm("MPI_Win_create", comm, [&] {
    Communicator& c = intraCommArg(comm);
    infoArg(info);
    pointerArg(win, "win");
    *win = rma::createWindow(c, base, size, dispUnit)->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_create)

int PMPI_Win_allocate(MPI_Aint size, int dispUnit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  return guardedComm("MPI_Win_allocate", comm, [&] {
    Communicator& c = intraCommArg(comm);
    infoArg(info);
    pointerArg(baseptr, "baseptr");
    pointerArg(win, "win");
    auto window = rma::allocateWindow(c, size, dispUnit);
    *static_cast<void**>(baseptr) = window->base();
    *win = window->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_allocate)

int PMPI_Win_allocate_shared(MPI_Aint size, int dispUnit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  return guardedComm("MPI_Win_allocate_shared", comm, [&] {
    Communicator& c = intraCommArg(comm);
    infoArg(info);
    pointerArg(baseptr, "baseptr");
    pointerArg(win, "win");
    auto window = rma::allocateSharedWindow(c, size, dispUnit);
    *static_cast<void**>(baseptr) = window->base();
    *win = window->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_allocate_shared)

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return guardedComm("MPI_Win_create_dynamic", comm, [&] {
    Communicator& c = intraCommArg(comm);
    infoArg(info);
    pointerArg(win, "win");
    *win = rma::createDynamicWindow(c)->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_create_dynamic)

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* dispUnit, void* baseptr) {
  return guardedWin("MPI_Win_shared_query", win, [&] {
    rma::Window& window = winArg(win);
    pointerArg(size, "size");
    pointerArg(dispUnit, "disp_unit");
    pointerArg(baseptr, "baseptr");
    *static_cast<void**>(baseptr) = window.sharedQuery(rank, size, dispUnit);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_shared_query)

int PMPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  return guardedWin("MPI_Win_attach", win, [&] {
    winArg(win).attach(base, size);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_attach)

int PMPI_Win_detach(MPI_Win win, const void* base) {
  return guardedWin("MPI_Win_detach", win, [&] {
    winArg(win).detach(base);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_detach)

int PMPI_Win_free(MPI_Win* win) {
  if (win == nullptr) return raiseError("MPI_Win_free", MPI_ERR_ARG, "win is a null pointer");
  return guardedWin("MPI_Win_free", *win, [&] {
    rma::freeWindow(winArg(*win));
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_free)

}  // extern "C"
