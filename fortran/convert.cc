#include "fortran/convert.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "mpi/abi/fortran_handles.h"

namespace zmpi::fortran {

// Index -> predefined handle, from the list the C library's tables are built from. The
// datatypes mpi.h names only by symbol (MPI_LB, ...) stay null here: MPI_Type_f2c has them.
#define ZMPI_ENTRY(index, handle) t[index] = handle;
const std::array<MPI_Comm, kPredefinedComms> kComms = [] {
  std::array<MPI_Comm, kPredefinedComms> t{};
  ZMPI_FORTRAN_COMMS(ZMPI_ENTRY)
  return t;
}();
const std::array<MPI_Datatype, kPredefinedDatatypes> kDatatypes = [] {
  std::array<MPI_Datatype, kPredefinedDatatypes> t{};
  ZMPI_FORTRAN_DATATYPES(ZMPI_ENTRY)
  return t;
}();
const std::array<MPI_Op, kPredefinedOps> kOps = [] {
  std::array<MPI_Op, kPredefinedOps> t{};
  ZMPI_FORTRAN_OPS(ZMPI_ENTRY)
  return t;
}();
#undef ZMPI_ENTRY

InString::InString(const char* text, size_t length) {
  if (length > kMaxStringLength || (text == nullptr && length != 0)) {
    ok_ = false;
    return;
  }
  size_t begin = 0;
  size_t end = length;
  while (end > begin && text[end - 1] == ' ') --end;
  while (begin < end && text[begin] == ' ') ++begin;
  value_.assign(text + begin, end - begin);
}

void storeString(const char* value, char* fortran, size_t length) {
  // No terminator: a Fortran string is its length, padded with blanks.
  const size_t n = std::min(std::strlen(value), length);
  std::copy_n(value, n, fortran);
  std::fill_n(fortran + n, length - n, ' ');
}

void raise(MPI_Fint* ierr, MPI_Comm comm, int errorClass, const char* call, const std::string& what) {
  if (comm == MPI_COMM_NULL) comm = MPI_COMM_WORLD;
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  PMPI_Comm_get_errhandler(comm, &handler);
  const bool fatal = handler == MPI_ERRORS_ARE_FATAL;
  if (handler != MPI_ERRHANDLER_NULL) PMPI_Errhandler_free(&handler);
  if (fatal) {
    std::fprintf(stderr, "zmpi: %s: %s (MPI_ERRORS_ARE_FATAL: aborting)\n", call, what.c_str());
    std::fflush(stderr);
    PMPI_Abort(MPI_COMM_WORLD, errorClass);
    std::abort();
  }
  PMPI_Comm_call_errhandler(comm, errorClass);
  setError(ierr, errorClass);
}

void badLength(MPI_Fint* ierr, const char* call, const char* argument, size_t length) {
  raise(ierr, MPI_COMM_WORLD, MPI_ERR_ARG, call,
        std::string("the length of CHARACTER argument ") + argument + " is " +
            std::to_string(static_cast<long long>(length)));
}

void badIndex(MPI_Fint* ierr, MPI_Comm comm, int errorClass, const char* call, const char* argument, MPI_Fint index) {
  raise(ierr, comm, errorClass, call,
        std::string("argument ") + argument + " is the Fortran handle " + std::to_string(index) +
            ", which names no live handle");
}

void unsupportedCall(MPI_Fint* ierr, const char* call) {
  raise(ierr, MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION, call, "not supported by zmpi yet");
}

void unsupported(const char* call) {
  std::fprintf(stderr, "zmpi: %s is not supported by zmpi's Fortran bindings yet (MPI_ERR_UNSUPPORTED_OPERATION)\n",
               call);
  std::fflush(stderr);
  PMPI_Abort(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION);
  std::abort();
}

}  // namespace zmpi::fortran
