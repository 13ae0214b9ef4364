// MPI-1's calls that MPI-3 removed from C but Fortran programs still make (MPI_Address,
// MPI_Type_extent/lb/ub, MPI_Type_struct/hindexed/hvector, MPI_Errhandler_create): their
// addresses and displacements are default INTEGERs, so each becomes its MPI-2 successor
// with the values widened -- or, for a result an INTEGER cannot hold, MPI_ERR_ARG naming
// the successor to use.
#include <limits>
#include <string>
#include <vector>

#include "fortran/convert.h"

namespace zf = zmpi::fortran;

using FortranHandler = void(MPI_Fint* comm, MPI_Fint* errorcode);
extern "C" void ompi_comm_create_errhandler_f(FortranHandler* function, MPI_Fint* errhandler, MPI_Fint* ierr);

namespace {

// An MPI_Aint result into an INTEGER argument.
void storeNarrow(MPI_Aint value, MPI_Fint* result, MPI_Fint* ierr, const char* call, const char* successor) {
  if (value < std::numeric_limits<MPI_Fint>::min() || value > std::numeric_limits<MPI_Fint>::max()) {
    return zf::raise(ierr, MPI_COMM_WORLD, MPI_ERR_ARG, call,
                     std::to_string(value) + " does not fit in an INTEGER: use " + successor);
  }
  *result = static_cast<MPI_Fint>(value);
  zf::setError(ierr, MPI_SUCCESS);
}

std::vector<MPI_Aint> widen(const MPI_Fint* values, MPI_Fint count) {
  std::vector<MPI_Aint> wide(static_cast<size_t>(count > 0 ? count : 0));
  for (size_t i = 0; i < wide.size(); ++i) wide[i] = values[i];
  return wide;
}

bool checkCount(MPI_Fint* ierr, const char* call, MPI_Fint count) {
  if (count >= 0) return true;
  zf::raise(ierr, MPI_COMM_WORLD, MPI_ERR_COUNT, call, "count is " + std::to_string(count));
  return false;
}

template <typename Extent>
void extentPart(MPI_Fint* type, MPI_Fint* result, MPI_Fint* ierr, const char* call, Extent part) {
  MPI_Aint lb = 0;
  MPI_Aint extent = 0;
  const int rc = PMPI_Type_get_extent(zf::type(*type), &lb, &extent);
  if (rc != MPI_SUCCESS) return zf::setError(ierr, rc);
  storeNarrow(part(lb, extent), result, ierr, call, "MPI_Type_get_extent");
}

}  // namespace

extern "C" {

ZMPI_FORTRAN_EXPORT void ompi_address_f(void* location, MPI_Fint* address, MPI_Fint* ierr) {
  MPI_Aint wide = 0;
  const int rc = PMPI_Get_address(zf::buffer(location), &wide);
  if (rc != MPI_SUCCESS) return zf::setError(ierr, rc);
  storeNarrow(wide, address, ierr, "MPI_Address", "MPI_Get_address");
}
ZMPI_FORTRAN_ALIASES(ompi_address_f)

ZMPI_FORTRAN_EXPORT void ompi_type_extent_f(MPI_Fint* type, MPI_Fint* extent, MPI_Fint* ierr) {
  extentPart(type, extent, ierr, "MPI_Type_extent", [](MPI_Aint, MPI_Aint e) { return e; });
}
ZMPI_FORTRAN_ALIASES(ompi_type_extent_f)

ZMPI_FORTRAN_EXPORT void ompi_type_lb_f(MPI_Fint* type, MPI_Fint* lb, MPI_Fint* ierr) {
  extentPart(type, lb, ierr, "MPI_Type_lb", [](MPI_Aint l, MPI_Aint) { return l; });
}
ZMPI_FORTRAN_ALIASES(ompi_type_lb_f)

ZMPI_FORTRAN_EXPORT void ompi_type_ub_f(MPI_Fint* type, MPI_Fint* ub, MPI_Fint* ierr) {
  extentPart(type, ub, ierr, "MPI_Type_ub", [](MPI_Aint l, MPI_Aint e) { return l + e; });
}
ZMPI_FORTRAN_ALIASES(ompi_type_ub_f)

ZMPI_FORTRAN_EXPORT void ompi_type_struct_f(MPI_Fint* count, MPI_Fint* blocklengths, MPI_Fint* displacements,
                                            MPI_Fint* types, MPI_Fint* newtype, MPI_Fint* ierr) {
  if (!checkCount(ierr, "MPI_Type_struct", *count)) return;
  std::vector<MPI_Aint> wide = widen(displacements, *count);
  std::vector<MPI_Datatype> c(wide.size());
  for (size_t i = 0; i < c.size(); ++i) c[i] = zf::type(types[i]);
  MPI_Datatype result = MPI_DATATYPE_NULL;
  const int rc = PMPI_Type_create_struct(*count, blocklengths, wide.data(), c.data(), &result);
  if (rc == MPI_SUCCESS) *newtype = zf::toFortran(result);
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_type_struct_f)

ZMPI_FORTRAN_EXPORT void ompi_type_hindexed_f(MPI_Fint* count, MPI_Fint* blocklengths, MPI_Fint* displacements,
                                              MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  if (!checkCount(ierr, "MPI_Type_hindexed", *count)) return;
  std::vector<MPI_Aint> wide = widen(displacements, *count);
  MPI_Datatype result = MPI_DATATYPE_NULL;
  const int rc = PMPI_Type_create_hindexed(*count, blocklengths, wide.data(), zf::type(*oldtype), &result);
  if (rc == MPI_SUCCESS) *newtype = zf::toFortran(result);
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_type_hindexed_f)

ZMPI_FORTRAN_EXPORT void ompi_type_hvector_f(MPI_Fint* count, MPI_Fint* blocklength, MPI_Fint* stride,
                                             MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  MPI_Datatype result = MPI_DATATYPE_NULL;
  const int rc = PMPI_Type_create_hvector(*count, *blocklength, *stride, zf::type(*oldtype), &result);
  if (rc == MPI_SUCCESS) *newtype = zf::toFortran(result);
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_type_hvector_f)

// MPI_Errhandler_create is MPI_Comm_create_errhandler under its MPI-1 name.
ZMPI_FORTRAN_EXPORT void ompi_errhandler_create_f(FortranHandler* function, MPI_Fint* errhandler, MPI_Fint* ierr) {
  ompi_comm_create_errhandler_f(function, errhandler, ierr);
}
ZMPI_FORTRAN_ALIASES(ompi_errhandler_create_f)

}  // extern "C"
