// Bindings over arrays of requests (MPI_Waitall, MPI_Testany, ...): the Fortran indices are
// converted into a C array and back (a completed request comes back as MPI_REQUEST_NULL's
// index, a persistent one keeps its own), statuses through an aligned copy, and the
// indices the C calls return are 0-based where Fortran's are 1-based.
#include <array>
#include <string>
#include <vector>

#include "fortran/convert.h"

namespace zf = zmpi::fortran;

namespace {

// Up to N elements on the stack, more on the heap: most calls pass a few requests, and a
// heap allocation per MPI_Waitall would cost more than the binding's other work.
template <typename T, size_t N>
class SmallArray {
 public:
  explicit SmallArray(size_t n) : size_(n) {
    if (n > N) heap_.resize(n);
  }
  T* data() { return size_ > N ? heap_.data() : inline_.data(); }
  const T* data() const { return size_ > N ? heap_.data() : inline_.data(); }
  size_t size() const { return size_; }

 private:
  size_t size_;
  std::array<T, N> inline_;
  std::vector<T> heap_;
};

// The C side of one call's request array (and statuses, when asked for).
class Requests {
 public:
  Requests(const MPI_Fint* fortran, int count, MPI_Fint* statuses)
      : requests_(static_cast<size_t>(count)),
        statuses_(zf::statusIgnored(statuses) ? 0 : static_cast<size_t>(count)),
        statusesFortran_(zf::statusIgnored(statuses) ? nullptr : statuses) {
    MPI_Request* c = requests_.data();
    for (int i = 0; i < count; ++i) c[i] = zf::req(fortran[i]);
  }
  MPI_Request* c() { return requests_.data(); }
  MPI_Status* statuses() { return statusesFortran_ != nullptr ? statuses_.data() : MPI_STATUSES_IGNORE; }
  void store(MPI_Fint* fortran) const {
    const MPI_Request* c = requests_.data();
    for (size_t i = 0; i < requests_.size(); ++i) fortran[i] = zf::toFortran(c[i]);
  }
  // The first n statuses (Waitsome/Testsome fill only those), into the Fortran array.
  void storeStatuses(size_t n) const {
    if (statusesFortran_ == nullptr) return;
    std::memcpy(statusesFortran_, statuses_.data(), n * sizeof(MPI_Status));
  }

 private:
  SmallArray<MPI_Request, 16> requests_;
  SmallArray<MPI_Status, 16> statuses_;
  MPI_Fint* statusesFortran_;
};

bool checkCount(MPI_Fint* ierr, const char* call, MPI_Fint count) {
  if (count >= 0) return true;
  zf::raise(ierr, MPI_COMM_WORLD, MPI_ERR_COUNT, call, "count is " + std::to_string(count));
  return false;
}

MPI_Fint toFortranIndex(int index) { return index == MPI_UNDEFINED ? MPI_UNDEFINED : index + 1; }

template <typename Call>
void some(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices, MPI_Fint* statuses,
          MPI_Fint* ierr, const char* name, Call call) {
  if (!checkCount(ierr, name, *incount)) return;
  Requests r(requests, *incount, statuses);
  int n = 0;
  const int rc = call(*incount, r.c(), &n, indices, r.statuses());
  r.store(requests);
  if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) {
    *outcount = n;
    if (n != MPI_UNDEFINED) {
      for (int i = 0; i < n; ++i) indices[i] += 1;
      r.storeStatuses(static_cast<size_t>(n));
    }
  }
  zf::setError(ierr, rc);
}

}  // namespace

extern "C" {

ZMPI_FORTRAN_EXPORT void ompi_waitall_f(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses, MPI_Fint* ierr) {
  if (!checkCount(ierr, "MPI_Waitall", *count)) return;
  Requests r(requests, *count, statuses);
  const int rc = PMPI_Waitall(*count, r.c(), r.statuses());
  r.store(requests);
  if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) r.storeStatuses(static_cast<size_t>(*count));
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_waitall_f)

ZMPI_FORTRAN_EXPORT void ompi_testall_f(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, MPI_Fint* statuses,
                                        MPI_Fint* ierr) {
  if (!checkCount(ierr, "MPI_Testall", *count)) return;
  Requests r(requests, *count, statuses);
  int done = 0;
  const int rc = PMPI_Testall(*count, r.c(), &done, r.statuses());
  r.store(requests);
  if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) {
    *flag = zf::logical(done);
    if (done) r.storeStatuses(static_cast<size_t>(*count));
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_testall_f)

ZMPI_FORTRAN_EXPORT void ompi_waitany_f(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* status,
                                        MPI_Fint* ierr) {
  if (!checkCount(ierr, "MPI_Waitany", *count)) return;
  Requests r(requests, *count, mpi_fortran_statuses_ignore_);
  MPI_Status copy;
  MPI_Status* s = zf::statusFor(status, &copy, false);
  int indexC = MPI_UNDEFINED;
  const int rc = PMPI_Waitany(*count, r.c(), &indexC, s);
  r.store(requests);
  if (rc == MPI_SUCCESS) {
    *index = toFortranIndex(indexC);
    zf::storeStatus(status, s, &copy);
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_waitany_f)

ZMPI_FORTRAN_EXPORT void ompi_testany_f(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag,
                                        MPI_Fint* status, MPI_Fint* ierr) {
  if (!checkCount(ierr, "MPI_Testany", *count)) return;
  Requests r(requests, *count, mpi_fortran_statuses_ignore_);
  MPI_Status copy;
  MPI_Status* s = zf::statusFor(status, &copy, false);
  int indexC = MPI_UNDEFINED;
  int done = 0;
  const int rc = PMPI_Testany(*count, r.c(), &indexC, &done, s);
  r.store(requests);
  if (rc == MPI_SUCCESS) {
    *index = toFortranIndex(indexC);
    *flag = zf::logical(done);
    zf::storeStatus(status, s, &copy);
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_testany_f)

ZMPI_FORTRAN_EXPORT void ompi_waitsome_f(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                                         MPI_Fint* statuses, MPI_Fint* ierr) {
  some(incount, requests, outcount, indices, statuses, ierr, "MPI_Waitsome", PMPI_Waitsome);
}
ZMPI_FORTRAN_ALIASES(ompi_waitsome_f)

ZMPI_FORTRAN_EXPORT void ompi_testsome_f(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                                         MPI_Fint* statuses, MPI_Fint* ierr) {
  some(incount, requests, outcount, indices, statuses, ierr, "MPI_Testsome", PMPI_Testsome);
}
ZMPI_FORTRAN_ALIASES(ompi_testsome_f)

ZMPI_FORTRAN_EXPORT void ompi_startall_f(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* ierr) {
  if (!checkCount(ierr, "MPI_Startall", *count)) return;
  Requests r(requests, *count, mpi_fortran_statuses_ignore_);
  const int rc = PMPI_Startall(*count, r.c());
  r.store(requests);
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_startall_f)

}  // extern "C"
