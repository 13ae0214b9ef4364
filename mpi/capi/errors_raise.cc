// How an error reaches the program: through the communicator's error handler.
#include <unistd.h>

#include "mpi/capi/entry.h"
#include "mpi/capi/error_strings.h"
#include "mpi/capi/runtime.h"
#include "mpi/comm/communicator.h"
#include "mpi/core/errhandler.h"

namespace zmpi::mpi::capi {
namespace {

Errhandler* handlerFor(MPI_Comm comm, Communicator** target) {
  *target = nullptr;
  if (isHandleOf(comm, HandleKind::Comm) && implOf<Communicator>(comm) != nullptr) {
    *target = implOf<Communicator>(comm);
  } else if (Runtime::instance().state() == State::Initialized) {
    *target = &Runtime::instance().world()->commWorld();
  }
  return *target ? (*target)->errhandler() : Errhandler::fatal();
}

}  // namespace

int raiseCommError(MPI_Comm comm, const char* call, int code, const std::string& message) {
  Communicator* target = nullptr;
  Errhandler* handler = handlerFor(comm, &target);
  switch (handler->kind()) {
    case Errhandler::Kind::Return:
      return code;
    case Errhandler::Kind::Comm: {
      // A Comm-kind handler is a communicator's, so target is set (Errhandler::fatal() is not Comm).
      MPI_Comm handle = target->handle();  // NOLINT(clang-analyzer-core.CallAndMessage)
      int value = code;
      handler->commFunction()(&handle, &value, call);
      return code;
    }
    default:
      break;
  }
  std::string classText = errorString(errorClass(code));
  if (classText.empty()) classText = "error code " + std::to_string(code);
  const int rank = Runtime::instance().world() ? Runtime::instance().world()->rank() : 0;
  std::string text = std::string("*** An error occurred in ") + call + "\n*** reported by process rank " +
                     std::to_string(rank) + "\n*** on communicator " +
                     (target ? (target->name.empty() ? std::string("(unnamed)") : target->name) : "MPI_COMM_WORLD") +
                     "\n*** " + classText + (message.empty() ? "" : ": " + message) +
                     "\n*** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,\n***    and "
                     "potentially your MPI job)";
  abortJob(errorClass(code) > 0 ? errorClass(code) : 1, text);
}

}  // namespace zmpi::mpi::capi
