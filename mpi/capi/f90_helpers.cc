// The four helpers Open MPI's libmpi.so.40 itself exports for Fortran's `use mpi` module
// (MPI_Wtime, MPI_Wtick, MPI_Aint_add and MPI_Aint_diff as subroutines writing their result
// through a pointer), under every name mangling a Fortran compiler uses.
#include <mpi.h>

namespace {

void wtime(double* result) { *result = PMPI_Wtime(); }
void wtick(double* result) { *result = PMPI_Wtick(); }
void aintAdd(const MPI_Aint* base, const MPI_Aint* displacement, MPI_Aint* result) { *result = *base + *displacement; }
void aintDiff(const MPI_Aint* first, const MPI_Aint* second, MPI_Aint* result) { *result = *first - *second; }

}  // namespace

#define ZMPI_F90_HELPER(upper, lower, impl, params, args)                               \
  extern "C" __attribute__((visibility("default"))) void upper params { impl args; }    \
  extern "C" __attribute__((visibility("default"))) void lower params { impl args; }    \
  extern "C" __attribute__((visibility("default"))) void lower##_ params { impl args; } \
  extern "C" __attribute__((visibility("default"))) void lower##__ params { impl args; }

ZMPI_F90_HELPER(MPI_WTIME_F90, mpi_wtime_f90, wtime, (double* result), (result))
ZMPI_F90_HELPER(MPI_WTICK_F90, mpi_wtick_f90, wtick, (double* result), (result))
ZMPI_F90_HELPER(MPI_AINT_ADD_F90, mpi_aint_add_f90, aintAdd, (const MPI_Aint* a, const MPI_Aint* b, MPI_Aint* r),
                (a, b, r))
ZMPI_F90_HELPER(MPI_AINT_DIFF_F90, mpi_aint_diff_f90, aintDiff, (const MPI_Aint* a, const MPI_Aint* b, MPI_Aint* r),
                (a, b, r))
