#pragma once
// What the window entry points share: the window argument check, and routing an error
// raised on a window through the window's error handler (MPI_ERRORS_ARE_FATAL unless the
// program set another), as capi/entry.h does for communicators.
#include <mpi.h>

#include <string>

#include "mpi/capi/entry.h"
#include "mpi/capi/runtime.h"
#include "mpi/rma/window.h"

namespace zmpi::mpi::capi {

inline rma::Window& winArg(MPI_Win win) {
  requireWorld();
  return *rma::windowOf(win);
}

// An invalid `win` sends the error to MPI_COMM_WORLD's handler, as Open MPI does.
int raiseWinError(MPI_Win win, const char* call, int code, const std::string& message);

template <typename Body>
int guardedWin(const char* call, MPI_Win win, Body&& body) noexcept {
  try {
    return body();
  } catch (const MpiError& error) {
    return raiseWinError(win, call, error.code(), error.what());
  } catch (const std::bad_alloc&) {
    return raiseWinError(win, call, MPI_ERR_NO_MEM, "out of memory");
  } catch (const std::exception& error) {
    return raiseWinError(win, call, MPI_ERR_INTERN, error.what());
  }
}

}  // namespace zmpi::mpi::capi
