// Error handlers of files: raising an error on a file, and MPI_File_set/get/call_errhandler
// (MPI_File_create_errhandler lives with the other constructors in errhandlers.cc).
#include <atomic>

#include "mpi/capi/error_strings.h"
#include "mpi/capi/file_entry.h"
#include "mpi/capi/validate.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace zmpi::mpi::capi {
namespace {

std::atomic<Errhandler*>& fileNullHandler() {
  static std::atomic<Errhandler*> handler{nullptr};
  return handler;
}

io::File* openFileOrNull(MPI_File file) {
  if (file == MPI_FILE_NULL || !isHandleOf(file, HandleKind::File)) return nullptr;
  return implOf<io::File>(file);
}

// A file takes predefined handlers and those made by MPI_File_create_errhandler only.
Errhandler* fileHandlerArg(MPI_Errhandler errhandler) {
  Errhandler* handler = errhandlerOf(errhandler);
  const Errhandler::Kind kind = handler->kind();
  if (kind == Errhandler::Kind::Comm || kind == Errhandler::Kind::Win) {
    fail(MPI_ERR_ARG, std::string("the error handler was created for ") +
                          (kind == Errhandler::Kind::Comm ? "communicators" : "windows") + ", not files");
  }
  return handler;
}

}  // namespace

Errhandler* defaultFileErrhandler() {
  Errhandler* handler = fileNullHandler().load();
  return handler ? handler : Errhandler::returning();
}

int raiseFileError(MPI_File file, const char* call, int code, const std::string& message) {
  io::File* target = openFileOrNull(file);
  Errhandler* handler = target ? target->errhandler() : defaultFileErrhandler();
  switch (handler->kind()) {
    case Errhandler::Kind::Fatal:
      break;
    case Errhandler::Kind::File: {
      MPI_File handle = target ? target->handle() : MPI_FILE_NULL;
      int value = code;
      handler->fileFunction()(&handle, &value, call);
      return code;
    }
    default:
      return code;
  }
  std::string classText = errorString(errorClass(code));
  if (classText.empty()) classText = "error code " + std::to_string(code);
  World* world = Runtime::instance().world();
  const std::string text = std::string("*** An error occurred in ") + call + "\n*** reported by process rank " +
                           std::to_string(world ? world->rank() : 0) + "\n*** on file " +
                           (target ? target->path() : std::string("MPI_FILE_NULL")) + "\n*** " + classText +
                           (message.empty() ? "" : ": " + message) +
                           "\n*** MPI_ERRORS_ARE_FATAL (processes in this file's communicator will now abort,\n***"
                           "    and potentially your MPI job)";
  abortJob(errorClass(code) > 0 ? errorClass(code) : 1, text);
}

}  // namespace zmpi::mpi::capi

extern "C" {

// On MPI_FILE_NULL: sets the handler files opened afterwards start with.
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler) {
  return guardedFile("MPI_File_set_errhandler", file, [&] {
    Errhandler* handler = fileHandlerArg(errhandler);
    if (file == MPI_FILE_NULL) {
      handler->retain();
      if (Errhandler* previous = fileNullHandler().exchange(handler)) previous->release();
    } else {
      fileArg(file).setErrhandler(handler);
    }
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_set_errhandler)

int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler* errhandler) {
  return guardedFile("MPI_File_get_errhandler", file, [&] {
    pointerArg(errhandler, "errhandler");
    Errhandler* handler = file == MPI_FILE_NULL ? defaultFileErrhandler() : fileArg(file).errhandler();
    handler->retain();  // the program's handle, released by MPI_Errhandler_free
    *errhandler = handler->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_errhandler)

// Returns MPI_SUCCESS once the handler has run (MPI-3.1 8.3.4), whatever code it was given.
int PMPI_File_call_errhandler(MPI_File file, int errorcode) {
  const int status = guardedFile("MPI_File_call_errhandler", file, [&] {
    if (file != MPI_FILE_NULL) fileArg(file);
    return MPI_SUCCESS;
  });
  if (status != MPI_SUCCESS) return status;
  raiseFileError(file, "MPI_File_call_errhandler", errorcode, "");
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_File_call_errhandler)

}  // extern "C"
