// Window synchronization: fence, lock/unlock (and _all), flushes, sync, and
// post/start/complete/wait/test. The work is in mpi/rma/sync_*.cc.
#include "mpi/capi/validate.h"
#include "mpi/capi/win_entry.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

template <typename Call>
int onWindow(const char* name, MPI_Win win, Call&& call) {
  return guardedWin(name, win, [&] {
    call(winArg(win));
    return MPI_SUCCESS;
  });
}

}  // namespace

extern "C" {

int PMPI_Win_fence(int assert, MPI_Win win) {
  return onWindow("MPI_Win_fence", win, [&](rma::Window& w) { w.fence(assert); });
}
ZMPI_ALIAS(MPI_Win_fence)

int PMPI_Win_lock(int lockType, int rank, int assert, MPI_Win win) {
  return onWindow("MPI_Win_lock", win, [&](rma::Window& w) { w.lock(lockType, rank, assert); });
}
ZMPI_ALIAS(MPI_Win_lock)

int PMPI_Win_unlock(int rank, MPI_Win win) {
  return onWindow("MPI_Win_unlock", win, [&](rma::Window& w) { w.unlock(rank); });
}
ZMPI_ALIAS(MPI_Win_unlock)

int PMPI_Win_lock_all(int assert, MPI_Win win) {
  return onWindow("MPI_Win_lock_all", win, [&](rma::Window& w) { w.lockAll(assert); });
}
ZMPI_ALIAS(MPI_Win_lock_all)

int PMPI_Win_unlock_all(MPI_Win win) {
  return onWindow("MPI_Win_unlock_all", win, [&](rma::Window& w) { w.unlockAll(); });
}
ZMPI_ALIAS(MPI_Win_unlock_all)

int PMPI_Win_flush(int rank, MPI_Win win) {
  return onWindow("MPI_Win_flush", win, [&](rma::Window& w) { w.flush(rank); });
}
ZMPI_ALIAS(MPI_Win_flush)

int PMPI_Win_flush_all(MPI_Win win) {
  return onWindow("MPI_Win_flush_all", win, [&](rma::Window& w) { w.flushAll(); });
}
ZMPI_ALIAS(MPI_Win_flush_all)

int PMPI_Win_flush_local(int rank, MPI_Win win) {
  return onWindow("MPI_Win_flush_local", win, [&](rma::Window& w) { w.flushLocal(rank); });
}
ZMPI_ALIAS(MPI_Win_flush_local)

int PMPI_Win_flush_local_all(MPI_Win win) {
  return onWindow("MPI_Win_flush_local_all", win, [&](rma::Window& w) { w.flushLocalAll(); });
}
ZMPI_ALIAS(MPI_Win_flush_local_all)

// The unified memory model: public and private copies are the same memory, so syncing
// them is a memory barrier (see Window::sync).
int PMPI_Win_sync(MPI_Win win) {
  return onWindow("MPI_Win_sync", win, [&](rma::Window& w) { w.sync(); });
}
ZMPI_ALIAS(MPI_Win_sync)

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
  return onWindow("MPI_Win_post", win, [&](rma::Window& w) { w.post(groupOf(group, "group"), assert); });
}
ZMPI_ALIAS(MPI_Win_post)

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
  return onWindow("MPI_Win_start", win, [&](rma::Window& w) { w.start(groupOf(group, "group"), assert); });
}
ZMPI_ALIAS(MPI_Win_start)

int PMPI_Win_complete(MPI_Win win) {
  return onWindow("MPI_Win_complete", win, [&](rma::Window& w) { w.complete(); });
}
ZMPI_ALIAS(MPI_Win_complete)

int PMPI_Win_wait(MPI_Win win) {
  return onWindow("MPI_Win_wait", win, [&](rma::Window& w) { w.wait(); });
}
ZMPI_ALIAS(MPI_Win_wait)

int PMPI_Win_test(MPI_Win win, int* flag) {
  return guardedWin("MPI_Win_test", win, [&] {
    rma::Window& w = winArg(win);
    pointerArg(flag, "flag");
    *flag = w.test() ? 1 : 0;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_test)

}  // extern "C"
