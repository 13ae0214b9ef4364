#pragma once
// What every extern "C" entry point shares: catching the C++ layers' exceptions and
// handing the error code to the right error handler (STYLE.md point 4), and the
// MPI_X -> PMPI_X weak alias (so profiling tools can interpose MPI_X).
#include <new>
#include <string>

#include <mpi.h>

#include "mpi/core/current_call.h"
#include "mpi/core/error.h"

#define ZMPI_PRAGMA(text) _Pragma(#text)
// MPI_X is a weak alias of PMPI_X: the implementation is always PMPI_X.
#define ZMPI_ALIAS(name) ZMPI_PRAGMA(weak name = P##name)

namespace zmpi::mpi::capi {

// Routes an error raised by `call` on `comm` (MPI_COMM_NULL or an invalid handle: the
// MPI_COMM_WORLD handler) through its error handler: fatal aborts the job with a message
// naming the call; "return" and user handlers give the code back.
int raiseCommError(MPI_Comm comm, const char* call, int code, const std::string& message);

// The error handler MPI_COMM_WORLD would use (for calls that have no communicator).
inline int raiseError(const char* call, int code, const std::string& message) {
  return raiseCommError(MPI_COMM_NULL, call, code, message);
}

// Runs `body` (returning an MPI error code) and turns exceptions into error-handler calls.
template <typename Body>
int guardedComm(const char* call, MPI_Comm comm, Body&& body) noexcept {
  const CallScope scope(call, comm);  // for diagnostics (the watchdog names the call)
  try {
    return body();
  } catch (const MpiError& error) {
    return raiseCommError(comm, call, error.code(), error.what());
  } catch (const std::bad_alloc&) {
    return raiseCommError(comm, call, MPI_ERR_NO_MEM, "out of memory");
  } catch (const std::exception& error) {
    return raiseCommError(comm, call, MPI_ERR_INTERN, error.what());
  }
}

template <typename Body>
int guarded(const char* call, Body&& body) noexcept {
  return guardedComm(call, MPI_COMM_NULL, std::forward<Body>(body));
}

}  // namespace zmpi::mpi::capi
