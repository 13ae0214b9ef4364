// Attribute values from Fortran: INTEGER(KIND=MPI_ADDRESS_KIND) values (MPI-1's calls:
// INTEGER) stored as the C attribute's void*. The predefined attributes are pointers in C
// (MPI_TAG_UB points at an int, MPI_WIN_SIZE at an MPI_Aint); Fortran gets their values,
// and MPI_WIN_BASE the address itself, as Open MPI's bindings give them.
#include "fortran/convert.h"

namespace zf = zmpi::fortran;

namespace {

// NOLINTNEXTLINE(performance-no-int-to-ptr): a Fortran attribute value is an integer kept as C's void*
void* toC(MPI_Aint value) { return reinterpret_cast<void*>(value); }

MPI_Aint commValue(int keyval, void* value) {
  switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_APPNUM:
    case MPI_LASTUSEDCODE:
    case MPI_UNIVERSE_SIZE:
      return *static_cast<int*>(value);
    default:
      return reinterpret_cast<MPI_Aint>(value);
  }
}

MPI_Aint winValue(int keyval, void* value) {
  switch (keyval) {
    case MPI_WIN_SIZE:
      return *static_cast<MPI_Aint*>(value);
    case MPI_WIN_DISP_UNIT:
    case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL:
      return *static_cast<int*>(value);
    default:
      return reinterpret_cast<MPI_Aint>(value);  // MPI_WIN_BASE too: the address
  }
}

MPI_Aint typeValue(int, void* value) { return reinterpret_cast<MPI_Aint>(value); }

template <typename Value, typename Handle, typename Get, typename Convert>
void getAttr(Handle handle, MPI_Fint* keyval, Value* value, MPI_Fint* flag, MPI_Fint* ierr, Get get, Convert convert) {
  void* c = nullptr;
  int found = 0;
  const int rc = get(handle, *keyval, &c, &found);
  if (rc == MPI_SUCCESS) {
    *flag = zf::logical(found);
    if (found) *value = static_cast<Value>(convert(*keyval, c));
  }
  zf::setError(ierr, rc);
}

}  // namespace

extern "C" {

ZMPI_FORTRAN_EXPORT void ompi_comm_set_attr_f(MPI_Fint* comm, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* ierr) {
  zf::setError(ierr, PMPI_Comm_set_attr(zf::comm(*comm), *keyval, toC(*value)));
}
ZMPI_FORTRAN_ALIASES(ompi_comm_set_attr_f)

ZMPI_FORTRAN_EXPORT void ompi_comm_get_attr_f(MPI_Fint* comm, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                                              MPI_Fint* ierr) {
  getAttr(zf::comm(*comm), keyval, value, flag, ierr, PMPI_Comm_get_attr, commValue);
}
ZMPI_FORTRAN_ALIASES(ompi_comm_get_attr_f)

ZMPI_FORTRAN_EXPORT void ompi_type_set_attr_f(MPI_Fint* type, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* ierr) {
  zf::setError(ierr, PMPI_Type_set_attr(zf::type(*type), *keyval, toC(*value)));
}
ZMPI_FORTRAN_ALIASES(ompi_type_set_attr_f)

ZMPI_FORTRAN_EXPORT void ompi_type_get_attr_f(MPI_Fint* type, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                                              MPI_Fint* ierr) {
  getAttr(zf::type(*type), keyval, value, flag, ierr, PMPI_Type_get_attr, typeValue);
}
ZMPI_FORTRAN_ALIASES(ompi_type_get_attr_f)

ZMPI_FORTRAN_EXPORT void ompi_win_set_attr_f(MPI_Fint* win, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* ierr) {
  zf::setError(ierr, PMPI_Win_set_attr(zf::win(*win), *keyval, toC(*value)));
}
ZMPI_FORTRAN_ALIASES(ompi_win_set_attr_f)

ZMPI_FORTRAN_EXPORT void ompi_win_get_attr_f(MPI_Fint* win, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                                             MPI_Fint* ierr) {
  getAttr(zf::win(*win), keyval, value, flag, ierr, PMPI_Win_get_attr, winValue);
}
ZMPI_FORTRAN_ALIASES(ompi_win_get_attr_f)

// MPI-1: INTEGER values.
ZMPI_FORTRAN_EXPORT void ompi_attr_put_f(MPI_Fint* comm, MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* ierr) {
  zf::setError(ierr, PMPI_Comm_set_attr(zf::comm(*comm), *keyval, toC(*value)));
}
ZMPI_FORTRAN_ALIASES(ompi_attr_put_f)

ZMPI_FORTRAN_EXPORT void ompi_attr_get_f(MPI_Fint* comm, MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* flag,
                                         MPI_Fint* ierr) {
  getAttr(zf::comm(*comm), keyval, value, flag, ierr, PMPI_Comm_get_attr, commValue);
}
ZMPI_FORTRAN_ALIASES(ompi_attr_get_f)

ZMPI_FORTRAN_EXPORT void ompi_attr_delete_f(MPI_Fint* comm, MPI_Fint* keyval, MPI_Fint* ierr) {
  zf::setError(ierr, PMPI_Comm_delete_attr(zf::comm(*comm), *keyval));
}
ZMPI_FORTRAN_ALIASES(ompi_attr_delete_f)

}  // extern "C"
