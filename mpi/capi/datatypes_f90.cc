// MPI_Type_create_f90_integer / _real / _complex (MPI-3.1 17.2.5): the predefined type of
// the Fortran kind that SELECTED_INT_KIND(r) / SELECTED_REAL_KIND(p, r) pick, with
// gfortran's kinds on x86-64 (integer 1, 2, 4, 8, 16: 2, 4, 9, 18, 38 decimal digits; real
// 4, 8 and the 16-byte MPI_REAL16 this library carries as long double: 6, 15, 18 digits of
// precision and exponent ranges 37, 307, 4931). MPI_UNDEFINED leaves one bound free, as
// in Fortran; no such kind is MPI_ERR_ARG, naming the bounds. The handle is predefined:
// it must not be freed, and its envelope is the named type's.
#include <string>

#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

struct RealKind {
  int precision;
  int range;
  MPI_Datatype real;
  MPI_Datatype complex;
};

MPI_Datatype realKind(int p, int r, bool complex, const char* call) {
  if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
    fail(MPI_ERR_ARG, std::string(call) + ": p and r are both MPI_UNDEFINED");
  if ((p != MPI_UNDEFINED && p < 0) || (r != MPI_UNDEFINED && r < 0)) {
    fail(MPI_ERR_ARG, std::string(call) + ": p and r must be non-negative or MPI_UNDEFINED");
  }
  const RealKind kinds[] = {
      {6, 37, MPI_REAL4, MPI_COMPLEX8}, {15, 307, MPI_REAL8, MPI_COMPLEX16}, {18, 4931, MPI_REAL16, MPI_COMPLEX32}};
  for (const RealKind& kind : kinds) {
    if ((p == MPI_UNDEFINED || p <= kind.precision) && (r == MPI_UNDEFINED || r <= kind.range)) {
      return complex ? kind.complex : kind.real;
    }
  }
  fail(MPI_ERR_ARG, std::string(call) + ": no real kind has precision " + std::to_string(p) + " and exponent range " +
                        std::to_string(r));
}

}  // namespace

int PMPI_Type_create_f90_integer(int r, MPI_Datatype* newtype) {
  return guarded("MPI_Type_create_f90_integer", [&] {
    pointerArg(newtype, "newtype");
    const std::pair<int, MPI_Datatype> kinds[] = {{2, MPI_INTEGER1},
                                                  {4, MPI_INTEGER2},
                                                  {9, MPI_INTEGER4},
                                                  {18, MPI_INTEGER8},
                                                  {38, OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_integer16)}};
    require(r >= 0, MPI_ERR_ARG, "MPI_Type_create_f90_integer: r is negative");
    for (const auto& [digits, type] : kinds) {
      if (r <= digits) {
        *newtype = type;
        return MPI_SUCCESS;
      }
    }
    fail(MPI_ERR_ARG, "MPI_Type_create_f90_integer: no integer kind has " + std::to_string(r) + " decimal digits");
  });
}
ZMPI_ALIAS(MPI_Type_create_f90_integer)

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype) {
  return guarded("MPI_Type_create_f90_real", [&] {
    pointerArg(newtype, "newtype");
    *newtype = realKind(p, r, false, "MPI_Type_create_f90_real");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_create_f90_real)

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype) {
  return guarded("MPI_Type_create_f90_complex", [&] {
    pointerArg(newtype, "newtype");
    *newtype = realKind(p, r, true, "MPI_Type_create_f90_complex");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_create_f90_complex)
