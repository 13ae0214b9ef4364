// The predefined attribute callbacks and MPI_CONVERSION_FN_NULL as Fortran sees them.
// C programs reach the C ones through mpi.h's OMPI_C_MPI_*_FN macros (capi/attributes.cc);
// the names below (MPI_COMM_DUP_FN, mpi_comm_dup_fn_, ...) are what Open MPI's
// libmpi.so.40 exports for Fortran: every argument by reference, the error in a trailing
// ierr, a LOGICAL flag, attribute values as INTEGER(KIND=MPI_ADDRESS_KIND) (MPI_Aint) --
// except MPI-1's MPI_DUP_FN / MPI_NULL_COPY_FN / MPI_NULL_DELETE_FN, whose values are
// default INTEGERs. Each is the ompi_*_f function with Open MPI's four weak aliases
// (upper case, lower case, one and two trailing underscores).
#include <mpi.h>

// mpi.h makes these names macros for C (the OMPI_C_ functions, a null pointer); here they
// name the Fortran symbols.
#undef MPI_COMM_NULL_COPY_FN
#undef MPI_COMM_DUP_FN
#undef MPI_COMM_NULL_DELETE_FN
#undef MPI_TYPE_NULL_COPY_FN
#undef MPI_TYPE_DUP_FN
#undef MPI_TYPE_NULL_DELETE_FN
#undef MPI_WIN_NULL_COPY_FN
#undef MPI_WIN_DUP_FN
#undef MPI_WIN_NULL_DELETE_FN
#undef MPI_NULL_COPY_FN
#undef MPI_DUP_FN
#undef MPI_NULL_DELETE_FN
#undef MPI_CONVERSION_FN_NULL

namespace {
using Logical = int;  // ompi_fortran_logical_t on every Debian target
}  // namespace

// NOLINTBEGIN(bugprone-macro-parentheses): the arguments are declarators, not expressions
#define ZMPI_FORTRAN_ALIASES(target, upper, lower)                                                   \
  extern "C" decltype(target) upper __attribute__((weak, alias(#target), visibility("default")));    \
  extern "C" decltype(target) lower __attribute__((weak, alias(#target), visibility("default")));    \
  extern "C" decltype(target) lower##_ __attribute__((weak, alias(#target), visibility("default"))); \
  extern "C" decltype(target) lower##__ __attribute__((weak, alias(#target), visibility("default")));

#define ZMPI_FORTRAN_NULL_COPY(target, upper, lower, Value)                                                   \
  extern "C" __attribute__((visibility("default"))) void target(MPI_Fint*, MPI_Fint*, Value*, Value*, Value*, \
                                                                Logical* flag, MPI_Fint* ierr) {              \
    *flag = 0;                                                                                                \
    *ierr = MPI_SUCCESS;                                                                                      \
  }                                                                                                           \
  ZMPI_FORTRAN_ALIASES(target, upper, lower)

#define ZMPI_FORTRAN_DUP(target, upper, lower, Value)                                                                \
  extern "C" __attribute__((visibility("default"))) void target(MPI_Fint*, MPI_Fint*, Value*, Value* in, Value* out, \
                                                                Logical* flag, MPI_Fint* ierr) {                     \
    *out = *in;                                                                                                      \
    *flag = 1;                                                                                                       \
    *ierr = MPI_SUCCESS;                                                                                             \
  }                                                                                                                  \
  ZMPI_FORTRAN_ALIASES(target, upper, lower)

#define ZMPI_FORTRAN_NULL_DELETE(target, upper, lower, Value)                                         \
  extern "C" __attribute__((visibility("default"))) void target(MPI_Fint*, MPI_Fint*, Value*, Value*, \
                                                                MPI_Fint* ierr) {                     \
    *ierr = MPI_SUCCESS;                                                                              \
  }                                                                                                   \
  ZMPI_FORTRAN_ALIASES(target, upper, lower)
// NOLINTEND(bugprone-macro-parentheses)

ZMPI_FORTRAN_NULL_COPY(ompi_comm_null_copy_fn_f, MPI_COMM_NULL_COPY_FN, mpi_comm_null_copy_fn, MPI_Aint)
ZMPI_FORTRAN_DUP(ompi_comm_dup_fn_f, MPI_COMM_DUP_FN, mpi_comm_dup_fn, MPI_Aint)
ZMPI_FORTRAN_NULL_DELETE(ompi_comm_null_delete_fn_f, MPI_COMM_NULL_DELETE_FN, mpi_comm_null_delete_fn, MPI_Aint)
ZMPI_FORTRAN_NULL_COPY(ompi_type_null_copy_fn_f, MPI_TYPE_NULL_COPY_FN, mpi_type_null_copy_fn, MPI_Aint)
ZMPI_FORTRAN_DUP(ompi_type_dup_fn_f, MPI_TYPE_DUP_FN, mpi_type_dup_fn, MPI_Aint)
ZMPI_FORTRAN_NULL_DELETE(ompi_type_null_delete_fn_f, MPI_TYPE_NULL_DELETE_FN, mpi_type_null_delete_fn, MPI_Aint)
ZMPI_FORTRAN_NULL_COPY(ompi_win_null_copy_fn_f, MPI_WIN_NULL_COPY_FN, mpi_win_null_copy_fn, MPI_Aint)
ZMPI_FORTRAN_DUP(ompi_win_dup_fn_f, MPI_WIN_DUP_FN, mpi_win_dup_fn, MPI_Aint)
ZMPI_FORTRAN_NULL_DELETE(ompi_win_null_delete_fn_f, MPI_WIN_NULL_DELETE_FN, mpi_win_null_delete_fn, MPI_Aint)
ZMPI_FORTRAN_NULL_COPY(ompi_null_copy_fn_f, MPI_NULL_COPY_FN, mpi_null_copy_fn, MPI_Fint)
ZMPI_FORTRAN_DUP(ompi_dup_fn_f, MPI_DUP_FN, mpi_dup_fn, MPI_Fint)
ZMPI_FORTRAN_NULL_DELETE(ompi_null_delete_fn_f, MPI_NULL_DELETE_FN, mpi_null_delete_fn, MPI_Fint)

// A marker for MPI_REGISTER_DATAREP (no conversion): never called by the library; if a
// program calls it, it succeeds doing nothing, as Open MPI's does.
extern "C" __attribute__((visibility("default"))) void mpi_conversion_fn_null_f(char*, MPI_Fint*, MPI_Fint*, char*,
                                                                                MPI_Offset*, MPI_Aint*,
                                                                                MPI_Fint* ierr) {
  *ierr = MPI_SUCCESS;
}
ZMPI_FORTRAN_ALIASES(mpi_conversion_fn_null_f, MPI_CONVERSION_FN_NULL, mpi_conversion_fn_null)

#undef ZMPI_FORTRAN_NULL_COPY
#undef ZMPI_FORTRAN_DUP
#undef ZMPI_FORTRAN_NULL_DELETE
#undef ZMPI_FORTRAN_ALIASES
