// The bindings of the environment calls that are not mechanical: MPI_Init has no argc/argv
// in Fortran, MPI_Wtime/MPI_Wtick/MPI_Aint_add/MPI_Aint_diff are functions (results, not
// ierror), MPI_Pcontrol has C varargs, MPI_F_sync_reg does nothing (it exists so that the
// compiler assumes a buffer changed), MPI_Buffer_detach has no address to give Fortran.
#include "fortran/convert.h"

namespace zf = zmpi::fortran;

extern "C" {

ZMPI_FORTRAN_EXPORT void ompi_init_f(MPI_Fint* ierr) { zf::setError(ierr, PMPI_Init(nullptr, nullptr)); }
ZMPI_FORTRAN_ALIASES(ompi_init_f)

ZMPI_FORTRAN_EXPORT void ompi_init_thread_f(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  int providedC = MPI_THREAD_SINGLE;
  const int rc = PMPI_Init_thread(nullptr, nullptr, *required, &providedC);
  if (rc == MPI_SUCCESS) *provided = providedC;
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_init_thread_f)

ZMPI_FORTRAN_EXPORT double ompi_wtime_f() { return PMPI_Wtime(); }
ZMPI_FORTRAN_ALIASES(ompi_wtime_f)

ZMPI_FORTRAN_EXPORT double ompi_wtick_f() { return PMPI_Wtick(); }
ZMPI_FORTRAN_ALIASES(ompi_wtick_f)

// Address arithmetic on this flat address space (MPI_Aint_add and _diff of the C library are not there yet).
ZMPI_FORTRAN_EXPORT MPI_Aint ompi_aint_add_f(MPI_Aint* base, MPI_Aint* disp) { return *base + *disp; }
ZMPI_FORTRAN_ALIASES(ompi_aint_add_f)

ZMPI_FORTRAN_EXPORT MPI_Aint ompi_aint_diff_f(MPI_Aint* addr1, MPI_Aint* addr2) { return *addr1 - *addr2; }
ZMPI_FORTRAN_ALIASES(ompi_aint_diff_f)

ZMPI_FORTRAN_EXPORT void ompi_pcontrol_f(MPI_Fint* level) { PMPI_Pcontrol(*level); }
ZMPI_FORTRAN_ALIASES(ompi_pcontrol_f)

// C's MPI_Buffer_detach writes the buffer's address through its first argument; Fortran's
// BUFFER_ADDR is the buffer itself (a choice argument), which must not be overwritten, so
// the address goes to a dummy, as in Open MPI's binding.
ZMPI_FORTRAN_EXPORT void ompi_buffer_detach_f(void* /*buffer_addr*/, MPI_Fint* size, MPI_Fint* ierr) {
  void* address = nullptr;
  int sizeC = 0;
  const int rc = PMPI_Buffer_detach(&address, &sizeC);
  if (rc == MPI_SUCCESS) *size = sizeC;
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_buffer_detach_f)

ZMPI_FORTRAN_EXPORT void ompi_f_sync_reg_f(void*) {}
ZMPI_FORTRAN_ALIASES(ompi_f_sync_reg_f)

}  // extern "C"
