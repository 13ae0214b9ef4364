#pragma once
// What the MPI_File_* entry points share. Errors go to the file's error handler, or for
// calls without an open file (MPI_File_open, MPI_File_delete, an invalid handle) to
// MPI_FILE_NULL's. Both start as MPI_ERRORS_RETURN (MPI-3.1 section 8.3: I/O errors are
// usually recoverable), unlike communicators.
#include <mpi.h>

#include <string>

#include "mpi/capi/entry.h"
#include "mpi/capi/runtime.h"
#include "mpi/core/errhandler.h"
#include "mpi/io/file.h"

namespace zmpi::mpi::capi {

// Hands `code` to the error handler of `file` (MPI_FILE_NULL's if it is no open file):
// fatal aborts the job naming the call and the file; "return" and the program's handlers
// give the code back.
int raiseFileError(MPI_File file, const char* call, int code, const std::string& message);

// MPI_FILE_NULL's handler: what files opened from now on start with.
Errhandler* defaultFileErrhandler();

template <typename Body>
int guardedFile(const char* call, MPI_File file, Body&& body) noexcept {
  try {
    return body();
  } catch (const MpiError& error) {
    return raiseFileError(file, call, error.code(), error.what());
  } catch (const std::bad_alloc&) {
    return raiseFileError(file, call, MPI_ERR_NO_MEM, "out of memory");
  } catch (const std::exception& error) {
    return raiseFileError(file, call, MPI_ERR_INTERN, error.what());
  }
}

inline io::File& fileArg(MPI_File file) {
  requireWorld();
  return *io::fileOf(file);
}

// MPI_MODE_SEQUENTIAL files allow shared file pointers only (MPI-3.1 13.2.1).
inline void notSequential(const io::File& file, const char* call) {
  if (file.hasMode(MPI_MODE_SEQUENTIAL)) {
    fail(MPI_ERR_UNSUPPORTED_OPERATION, std::string(call) + " is not allowed on a file opened MPI_MODE_SEQUENTIAL");
  }
}

// An offset in etypes of `view` as a position in its byte stream.
inline std::uint64_t streamPosition(MPI_Offset etypes, const io::FileView& view, const char* name) {
  if (etypes < 0) fail(MPI_ERR_ARG, std::string(name) + " is negative (" + std::to_string(etypes) + ")");
  return static_cast<std::uint64_t>(etypes) * view.etypeSize();
}

}  // namespace zmpi::mpi::capi
