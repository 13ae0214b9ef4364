// Generalized requests with Fortran callbacks (MPI_Grequest_start):
//   QUERY_FN(EXTRA_STATE, STATUS, IERROR), FREE_FN(EXTRA_STATE, IERROR),
//   CANCEL_FN(EXTRA_STATE, COMPLETE, IERROR)
// with INTEGER(KIND=MPI_ADDRESS_KIND) EXTRA_STATE, INTEGER STATUS(MPI_STATUS_SIZE), LOGICAL
// COMPLETE. The C library gets one record per request (the procedures and the program's
// extra_state) as its extra_state; the record goes with the request, after free_fn.
#include "fortran/convert.h"

namespace zf = zmpi::fortran;

namespace {

using Query = void(MPI_Aint* extra, MPI_Fint* status, MPI_Fint* ierr);
using Free = void(MPI_Aint* extra, MPI_Fint* ierr);
using Cancel = void(MPI_Aint* extra, MPI_Fint* complete, MPI_Fint* ierr);

struct Record {
  Query* query;
  Free* release;
  Cancel* cancel;
  MPI_Aint extra;
};

int queryTrampoline(void* state, MPI_Status* status) {
  auto* record = static_cast<Record*>(state);
  MPI_Fint fortran[zf::kStatusInts] = {};
  PMPI_Status_c2f(status, fortran);
  MPI_Fint ierr = MPI_SUCCESS;
  record->query(&record->extra, fortran, &ierr);
  PMPI_Status_f2c(fortran, status);
  return ierr;
}

int freeTrampoline(void* state) {
  auto* record = static_cast<Record*>(state);
  MPI_Fint ierr = MPI_SUCCESS;
  record->release(&record->extra, &ierr);
  delete record;
  return ierr;
}

int cancelTrampoline(void* state, int complete) {
  auto* record = static_cast<Record*>(state);
  MPI_Fint completeF = zf::logical(complete);
  MPI_Fint ierr = MPI_SUCCESS;
  record->cancel(&record->extra, &completeF, &ierr);
  return ierr;
}

}  // namespace

extern "C" {

ZMPI_FORTRAN_EXPORT void ompi_grequest_start_f(Query* query, Free* release, Cancel* cancel, MPI_Aint* extra,
                                               MPI_Fint* request, MPI_Fint* ierr) {
  auto* record = new Record{query, release, cancel, *extra};
  MPI_Request requestC = MPI_REQUEST_NULL;
  const int rc = PMPI_Grequest_start(queryTrampoline, freeTrampoline, cancelTrampoline, record, &requestC);
  if (rc == MPI_SUCCESS) {
    *request = zf::toFortran(requestC);
  } else {
    delete record;
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_grequest_start_f)

}  // extern "C"
