#pragma once
// What every extern "C" entry point shares: catching the C++ layers' exceptions and
// handing the error code to the right error handler (STYLE.md point 4), and the
// MPI_X -> PMPI_X weak alias (so profiling tools can interpose MPI_X).
#include <mpi.h>

#include <new>
#include <string>

#include "mpi/core/current_call.h"
#include "mpi/core/error.h"

// MPI_X is a weak alias of PMPI_X: the implementation is always PMPI_X, defined (extern "C",
// from <mpi.h>) earlier in the same file. An alias attribute, not '#pragma weak', which
// clang ignores in C++: GCC and clang both build the library. (decltype names PMPI_X, which
// <mpi.h> marks deprecated for MPI-1's removed calls: no warning for naming it here. Default
// visibility: the alias does not inherit PMPI_X's, and MPI-1's removed calls are declared by
// the file that defines them, not <mpi.h>.)
// NOLINTBEGIN(bugprone-macro-parentheses): `name` is the declarator of the alias, not an expression
#define ZMPI_ALIAS(name)                                                                                \
  _Pragma("GCC diagnostic push")                                                                        \
      _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"") extern "C" decltype(P##name) name \
      __attribute__((weak, alias("P" #name), visibility("default")));                                   \
  _Pragma("GCC diagnostic pop")
// NOLINTEND(bugprone-macro-parentheses)

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
