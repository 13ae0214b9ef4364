#include "mpi/core/request.h"

#include "mpi/comm/communicator.h"
#include "mpi/core/error.h"
#include "mpi/datatype/datatype.h"

namespace zmpi::mpi {

Request::Request(Kind k) : kind(k) { bindHandle(&handle_, HandleKind::Request, this); }

Request::~Request() {
  retireHandle(handle_.header);
  if (heldType_) heldType_->release();
  if (heldComm_) heldComm_->release();
}

void Request::holdComm(Communicator* c) {
  Communicator* held = c && c->retain() ? c : nullptr;
  if (heldComm_) heldComm_->release();
  heldComm_ = held;
  comm = c;
}

void Request::holdType(Datatype* t) {
  t->retain();
  if (heldType_) heldType_->release();
  heldType_ = t;
  type = t;
}

Request* requestOf(MPI_Request handle) {
  if (handle == MPI_REQUEST_NULL) return nullptr;
  if (!isHandleOf(handle, HandleKind::Request) || implOf<Request>(handle) == nullptr) {
    fail(MPI_ERR_REQUEST, "invalid request");
  }
  return implOf<Request>(handle);
}

void setEmptyStatus(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->_cancelled = 0;
  status->_ucount = 0;
}

uint64_t Request::bytes() const { return type == nullptr ? 0 : static_cast<uint64_t>(count) * type->size(); }

}  // namespace zmpi::mpi
