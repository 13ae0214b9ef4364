// The predefined copy/delete procedures mpif.h and the modules name (MPI_COMM_NULL_COPY_FN,
// MPI_COMM_DUP_FN, ..., MPI-1's MPI_NULL_COPY_FN / MPI_DUP_FN, MPI_CONVERSION_FN_NULL),
// with Fortran's convention, so that a keyval created with them from Fortran calls them
// like any Fortran procedure (keyvals.cc). Open MPI's libmpi.so.40 defines them; zmpi's
// C library does not, so they are here, under the lower-case manglings gfortran uses.
#include "fortran/convert.h"

// NOLINTBEGIN(bugprone-macro-parentheses): the arguments are declarators and types, not expressions
#define ZMPI_CALLBACK_NAMES(name, impl)                                                      \
  extern "C" ZMPI_FORTRAN_EXPORT decltype(impl) name __attribute__((weak, alias(#impl)));    \
  extern "C" ZMPI_FORTRAN_EXPORT decltype(impl) name##_ __attribute__((weak, alias(#impl))); \
  extern "C" ZMPI_FORTRAN_EXPORT decltype(impl) name##__ __attribute__((weak, alias(#impl)));

namespace {

template <typename Value>
void nullCopy(MPI_Fint*, MPI_Fint*, Value*, Value*, Value*, MPI_Fint* flag, MPI_Fint* ierr) {
  *flag = 0;
  *ierr = MPI_SUCCESS;
}

template <typename Value>
void dup(MPI_Fint*, MPI_Fint*, Value*, Value* in, Value* out, MPI_Fint* flag, MPI_Fint* ierr) {
  *out = *in;
  *flag = 1;
  *ierr = MPI_SUCCESS;
}

template <typename Value>
void nullDelete(MPI_Fint*, MPI_Fint*, Value*, Value*, MPI_Fint* ierr) {
  *ierr = MPI_SUCCESS;
}

}  // namespace

#define ZMPI_CALLBACK(name, body, Value)                                                                      \
  extern "C" ZMPI_FORTRAN_EXPORT void ompi_##name##_f(MPI_Fint* a, MPI_Fint* b, Value* c, Value* d, Value* e, \
                                                      MPI_Fint* f, MPI_Fint* g) {                             \
    body<Value>(a, b, c, d, e, f, g);                                                                         \
  }                                                                                                           \
  ZMPI_CALLBACK_NAMES(mpi_##name, ompi_##name##_f)

#define ZMPI_DELETE_CALLBACK(name, Value)                                                                          \
  extern "C" ZMPI_FORTRAN_EXPORT void ompi_##name##_f(MPI_Fint* a, MPI_Fint* b, Value* c, Value* d, MPI_Fint* e) { \
    nullDelete<Value>(a, b, c, d, e);                                                                              \
  }                                                                                                                \
  ZMPI_CALLBACK_NAMES(mpi_##name, ompi_##name##_f)

ZMPI_CALLBACK(comm_null_copy_fn, nullCopy, MPI_Aint)
ZMPI_CALLBACK(comm_dup_fn, dup, MPI_Aint)
ZMPI_DELETE_CALLBACK(comm_null_delete_fn, MPI_Aint)
ZMPI_CALLBACK(type_null_copy_fn, nullCopy, MPI_Aint)
ZMPI_CALLBACK(type_dup_fn, dup, MPI_Aint)
ZMPI_DELETE_CALLBACK(type_null_delete_fn, MPI_Aint)
ZMPI_CALLBACK(win_null_copy_fn, nullCopy, MPI_Aint)
ZMPI_CALLBACK(win_dup_fn, dup, MPI_Aint)
ZMPI_DELETE_CALLBACK(win_null_delete_fn, MPI_Aint)
ZMPI_CALLBACK(null_copy_fn, nullCopy, MPI_Fint)
ZMPI_CALLBACK(dup_fn, dup, MPI_Fint)
ZMPI_DELETE_CALLBACK(null_delete_fn, MPI_Fint)

// MPI_CONVERSION_FN_NULL (MPI_Register_datarep): never called, only named.
extern "C" ZMPI_FORTRAN_EXPORT void ompi_conversion_fn_null_f(void*, MPI_Fint*, MPI_Fint*, void*, MPI_Offset*,
                                                              MPI_Aint*, MPI_Fint* ierr) {
  *ierr = MPI_SUCCESS;
}
ZMPI_CALLBACK_NAMES(mpi_conversion_fn_null, ompi_conversion_fn_null_f)
// NOLINTEND(bugprone-macro-parentheses)
