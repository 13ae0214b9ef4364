// Error handlers: creating them, attaching them to communicators, invoking them.
//
// A handler the program creates is counted: each handle the program holds (from create or
// a *_get_errhandler) and each communicator, window or file it is attached to; it is
// deleted when the last of them lets go (MPI_Errhandler_free releases a handle).
// Window and file handlers can be created; attaching them waits for MPI_Win / MPI_File.
#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"
#include "mpi/core/errhandler.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

// Removed in MPI-3.0, so mpi.h declares them only for Open MPI's own build; Open MPI's
// library still exports them, so zmpi does too (default visibility, as OMPI_DECLSPEC gives).
extern "C" {
__attribute__((visibility("default"))) int PMPI_Errhandler_create(MPI_Comm_errhandler_function* function,
                                                                  MPI_Errhandler* errhandler);
__attribute__((visibility("default"))) int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
__attribute__((visibility("default"))) int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler);
}

namespace {

int createHandler(const char* call, Errhandler::Kind kind, void (*function)(), MPI_Errhandler* errhandler) {
  return guarded(call, [&] {
    pointerArg(errhandler, "errhandler");
    if (function == nullptr) fail(MPI_ERR_ARG, "function is a null pointer");
    *errhandler = (new Errhandler(kind, function, false))->handle();
    return MPI_SUCCESS;
  });
}

int setCommHandler(const char* call, MPI_Comm comm, MPI_Errhandler errhandler) {
  return guardedComm(call, comm, [&] {
    Communicator& c = commArg(comm);
    Errhandler* handler = errhandlerOf(errhandler);
    const Errhandler::Kind kind = handler->kind();
    if (kind != Errhandler::Kind::Comm && kind != Errhandler::Kind::Fatal && kind != Errhandler::Kind::Return) {
      fail(MPI_ERR_ARG, std::string("the error handler was created for ") +
                            (kind == Errhandler::Kind::Win ? "windows" : "files") + ", not communicators");
    }
    c.setErrhandler(handler);
    return MPI_SUCCESS;
  });
}

int getCommHandler(const char* call, MPI_Comm comm, MPI_Errhandler* errhandler) {
  return guardedComm(call, comm, [&] {
    Communicator& c = commArg(comm);
    pointerArg(errhandler, "errhandler");
    c.errhandler()->retain();  // the program's handle, released by MPI_Errhandler_free
    *errhandler = c.errhandler()->handle();
    return MPI_SUCCESS;
  });
}

}  // namespace

extern "C" {

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler) {
  return createHandler("MPI_Comm_create_errhandler", Errhandler::Kind::Comm, reinterpret_cast<void (*)()>(function),
                       errhandler);
}
ZMPI_ALIAS(MPI_Comm_create_errhandler)

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function* function, MPI_Errhandler* errhandler) {
  return createHandler("MPI_Win_create_errhandler", Errhandler::Kind::Win, reinterpret_cast<void (*)()>(function),
                       errhandler);
}
ZMPI_ALIAS(MPI_Win_create_errhandler)

int PMPI_File_create_errhandler(MPI_File_errhandler_function* function, MPI_Errhandler* errhandler) {
  return createHandler("MPI_File_create_errhandler", Errhandler::Kind::File, reinterpret_cast<void (*)()>(function),
                       errhandler);
}
ZMPI_ALIAS(MPI_File_create_errhandler)

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  return setCommHandler("MPI_Comm_set_errhandler", comm, errhandler);
}
ZMPI_ALIAS(MPI_Comm_set_errhandler)

// The handle returned is the program's to free with MPI_Errhandler_free.
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return getCommHandler("MPI_Comm_get_errhandler", comm, errhandler);
}
ZMPI_ALIAS(MPI_Comm_get_errhandler)

// Returns MPI_SUCCESS once the handler has run (MPI-3.1 8.3.4), whatever code it was given.
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  int status = guardedComm("MPI_Comm_call_errhandler", comm, [&] {
    commArg(comm);
    return MPI_SUCCESS;
  });
  if (status != MPI_SUCCESS) return status;
  raiseCommError(comm, "MPI_Comm_call_errhandler", errorcode, "");
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_Comm_call_errhandler)

int PMPI_Errhandler_free(MPI_Errhandler* errhandler) {
  return guarded("MPI_Errhandler_free", [&] {
    pointerArg(errhandler, "errhandler");
    Errhandler* handler = errhandlerOf(*errhandler);  // MPI_ERRHANDLER_NULL and stale handles are errors
    *errhandler = MPI_ERRHANDLER_NULL;
    handler->release();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Errhandler_free)

int PMPI_Errhandler_create(MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler) {
  return createHandler("MPI_Errhandler_create", Errhandler::Kind::Comm, reinterpret_cast<void (*)()>(function),
                       errhandler);
}
ZMPI_ALIAS(MPI_Errhandler_create)

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
  return setCommHandler("MPI_Errhandler_set", comm, errhandler);
}
ZMPI_ALIAS(MPI_Errhandler_set)

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return getCommHandler("MPI_Errhandler_get", comm, errhandler);
}
ZMPI_ALIAS(MPI_Errhandler_get)

}  // extern "C"
