// Window error handlers: raising errors on a window, and MPI_Win_set/get/call_errhandler.
#include <string>

#include "mpi/capi/error_strings.h"
#include "mpi/capi/validate.h"
#include "mpi/capi/win_entry.h"
#include "mpi/core/errhandler.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace zmpi::mpi::capi {

int raiseWinError(MPI_Win win, const char* call, int code, const std::string& message) {
  if (!isHandleOf(win, HandleKind::Win) || implOf<rma::Window>(win) == nullptr) {
    return raiseError(call, code, message);
  }
  rma::Window& window = *implOf<rma::Window>(win);
  Errhandler* handler = window.errhandler.get();
  switch (handler->kind()) {
    case Errhandler::Kind::Return:
      return code;
    case Errhandler::Kind::Win: {
      MPI_Win handle = win;
      int value = code;
      handler->winFunction()(&handle, &value, call);
      return code;
    }
    default:
      break;
  }
  std::string classText = errorString(errorClass(code));
  if (classText.empty()) classText = "error code " + std::to_string(code);
  const std::string text = std::string("*** An error occurred in ") + call + "\n*** reported by process rank " +
                           std::to_string(window.world().rank()) + "\n*** on win " +
                           (window.name.empty() ? std::string("(unnamed)") : window.name) + "\n*** " + classText +
                           (message.empty() ? "" : ": " + message) +
                           "\n*** MPI_ERRORS_ARE_FATAL (processes in this win will now abort,\n***    and "
                           "potentially your MPI job)";
  abortJob(errorClass(code) > 0 ? errorClass(code) : 1, text);
}

}  // namespace zmpi::mpi::capi

extern "C" {

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  return guardedWin("MPI_Win_set_errhandler", win, [&] {
    rma::Window& window = winArg(win);
    Errhandler* handler = errhandlerOf(errhandler);
    const Errhandler::Kind kind = handler->kind();
    if (kind != Errhandler::Kind::Win && kind != Errhandler::Kind::Fatal && kind != Errhandler::Kind::Return) {
      fail(MPI_ERR_ARG, std::string("the error handler was created for ") +
                            (kind == Errhandler::Kind::Comm ? "communicators" : "files") + ", not windows");
    }
    window.errhandler.reset(handler);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_set_errhandler)

// The handle returned is the program's to free with MPI_Errhandler_free.
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  return guardedWin("MPI_Win_get_errhandler", win, [&] {
    rma::Window& window = winArg(win);
    pointerArg(errhandler, "errhandler");
    window.errhandler->retain();  // the program's handle, released by MPI_Errhandler_free
    *errhandler = window.errhandler->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_get_errhandler)

// Returns MPI_SUCCESS once the handler has run (MPI-3.1 8.3.4), whatever code it was given.
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  const int status = guardedWin("MPI_Win_call_errhandler", win, [&] {
    winArg(win);
    return MPI_SUCCESS;
  });
  if (status != MPI_SUCCESS) return status;
  raiseWinError(win, "MPI_Win_call_errhandler", errorcode, "");
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_Win_call_errhandler)

}  // extern "C"
