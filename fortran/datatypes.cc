// Bindings with arrays of datatype handles (MPI_Type_create_struct, MPI_(I)alltoallw,
// MPI_Type_get_contents): the Fortran indices converted into a C array and back.
#include <string>
#include <vector>

#include "fortran/convert.h"

namespace zf = zmpi::fortran;

namespace {

std::vector<MPI_Datatype> types(const MPI_Fint* fortran, int count) {
  std::vector<MPI_Datatype> c(static_cast<size_t>(count > 0 ? count : 0));
  for (size_t i = 0; i < c.size(); ++i) c[i] = zf::type(fortran[i]);
  return c;
}

// How many entries the type arrays of an alltoallw over comm have: the (remote) group's size.
int peers(MPI_Comm comm) {
  int inter = 0;
  int n = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return 0;
  if (inter) {
    PMPI_Comm_remote_size(comm, &n);
  } else {
    PMPI_Comm_size(comm, &n);
  }
  return n;
}

}  // namespace

extern "C" {

ZMPI_FORTRAN_EXPORT void ompi_type_create_struct_f(MPI_Fint* count, MPI_Fint* blocklengths, MPI_Aint* displacements,
                                                   MPI_Fint* fortranTypes, MPI_Fint* newtype, MPI_Fint* ierr) {
  if (*count < 0) {
    return zf::raise(ierr, MPI_COMM_WORLD, MPI_ERR_COUNT, "MPI_Type_create_struct",
                     "count is " + std::to_string(*count));
  }
  std::vector<MPI_Datatype> c = types(fortranTypes, *count);
  MPI_Datatype result = MPI_DATATYPE_NULL;
  const int rc = PMPI_Type_create_struct(*count, blocklengths, displacements, c.data(), &result);
  if (rc == MPI_SUCCESS) *newtype = zf::toFortran(result);
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_type_create_struct_f)

ZMPI_FORTRAN_EXPORT void ompi_alltoallw_f(void* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtypes,
                                          void* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtypes,
                                          MPI_Fint* comm, MPI_Fint* ierr) {
  MPI_Comm c = zf::comm(*comm);
  const int n = peers(c);
  void* send = zf::buffer(sendbuf);
  std::vector<MPI_Datatype> s = send == MPI_IN_PLACE ? std::vector<MPI_Datatype>(1) : types(sendtypes, n);
  std::vector<MPI_Datatype> r = types(recvtypes, n);
  zf::setError(
      ierr, PMPI_Alltoallw(send, sendcounts, sdispls, s.data(), zf::buffer(recvbuf), recvcounts, rdispls, r.data(), c));
}
ZMPI_FORTRAN_ALIASES(ompi_alltoallw_f)

// The C call builds its plan from the type arrays before it returns, so they may be
// temporaries here although the operation goes on.
ZMPI_FORTRAN_EXPORT void ompi_ialltoallw_f(void* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtypes,
                                           void* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtypes,
                                           MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Comm c = zf::comm(*comm);
  const int n = peers(c);
  void* send = zf::buffer(sendbuf);
  std::vector<MPI_Datatype> s = send == MPI_IN_PLACE ? std::vector<MPI_Datatype>(1) : types(sendtypes, n);
  std::vector<MPI_Datatype> r = types(recvtypes, n);
  MPI_Request requestC = MPI_REQUEST_NULL;
  const int rc = PMPI_Ialltoallw(send, sendcounts, sdispls, s.data(), zf::buffer(recvbuf), recvcounts, rdispls,
                                 r.data(), c, &requestC);
  if (rc == MPI_SUCCESS) *request = zf::toFortran(requestC);
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_ialltoallw_f)

ZMPI_FORTRAN_EXPORT void ompi_type_get_contents_f(MPI_Fint* type, MPI_Fint* max_integers, MPI_Fint* max_addresses,
                                                  MPI_Fint* max_datatypes, MPI_Fint* integers, MPI_Aint* addresses,
                                                  MPI_Fint* datatypes, MPI_Fint* ierr) {
  if (*max_datatypes < 0) {
    return zf::raise(ierr, MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_contents",
                     "max_datatypes is " + std::to_string(*max_datatypes));
  }
  std::vector<MPI_Datatype> c(static_cast<size_t>(*max_datatypes));
  const int rc = PMPI_Type_get_contents(zf::type(*type), *max_integers, *max_addresses, *max_datatypes, integers,
                                        addresses, c.data());
  if (rc == MPI_SUCCESS) {
    // As many datatypes as the envelope names, which the call checked fit max_datatypes.
    int nIntegers = 0, nAddresses = 0, nDatatypes = 0, combiner = 0;
    PMPI_Type_get_envelope(zf::type(*type), &nIntegers, &nAddresses, &nDatatypes, &combiner);
    for (int i = 0; i < nDatatypes && i < *max_datatypes; ++i) datatypes[i] = zf::toFortran(c[static_cast<size_t>(i)]);
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_type_get_contents_f)

}  // extern "C"
