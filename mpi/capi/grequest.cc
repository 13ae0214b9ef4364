// Generalized requests (MPI-3.1 12.2): an operation the program carries out itself, made
// to look like any other request. MPI_Grequest_complete marks it done; the program's
// query_fn fills the status when a Wait/Test (or MPI_Request_get_status) sees it done,
// free_fn runs when the request goes (a completing Wait/Test or MPI_Request_free), and
// cancel_fn on MPI_Cancel.
#include "mpi/capi/grequest.h"

#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"
#include "mpi/core/world.h"

namespace zmpi::mpi::capi {

GeneralizedRequest::GeneralizedRequest(MPI_Grequest_query_function* query, MPI_Grequest_free_function* free,
                                       MPI_Grequest_cancel_function* cancel, void* extraState)
    : Request(Kind::Generalized), query_(query), free_(free), cancel_(cancel), extraState_(extraState) {
  setEmptyStatus(&status);
}

// The request's memory goes with free_fn's call: every path that ends a generalized
// request (finishRequest, MPI_Request_free, completion after an early free) deletes it.
// free_fn's error code has no caller to go to here; MPI_Request_free reports it itself.
GeneralizedRequest::~GeneralizedRequest() {
  if (!freeCalled_) runFree();
}

int GeneralizedRequest::runFree() {
  freeCalled_ = true;
  return free_ ? free_(extraState_) : MPI_SUCCESS;
}

bool GeneralizedRequest::progress() {
  if (!done.load(std::memory_order_acquire)) return false;
  if (!queried_) {
    // The standard asks for query_fn at each completion call; once is enough for the
    // status, which the program may not change after completing the request.
    queried_ = true;
    const int error = query_ ? query_(extraState_, &status) : MPI_SUCCESS;
    status.MPI_ERROR = error;
  }
  return true;
}

void GeneralizedRequest::cancel() {
  if (cancel_) {
    const int error = cancel_(extraState_, done.load(std::memory_order_acquire) ? 1 : 0);
    if (error != MPI_SUCCESS) fail(error, "the generalized request's cancel_fn failed");
  }
}

}  // namespace zmpi::mpi::capi

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

extern "C" {

int PMPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                        MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request) {
  return guarded("MPI_Grequest_start", [&] {
    requireWorld();
    requestPointerArg(request);
    *request = (new GeneralizedRequest(query_fn, free_fn, cancel_fn, extra_state))->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Grequest_start)

// May run on any thread (the program's worker completing the operation): the flag is
// atomic and the engine's waiters are woken to look at it again.
int PMPI_Grequest_complete(MPI_Request request) {
  return guarded("MPI_Grequest_complete", [&] {
    World& world = requireWorld();
    Request* r = requestOf(request);
    if (r == nullptr || r->kind != Request::Kind::Generalized) {
      fail(MPI_ERR_REQUEST, "MPI_Grequest_complete needs a generalized request");
    }
    auto* g = static_cast<GeneralizedRequest*>(r);
    if (g->done.exchange(true, std::memory_order_acq_rel)) {
      fail(MPI_ERR_REQUEST, "the generalized request was already completed");
    }
    // Freed by MPI_Request_free before completion: nobody will wait for it, so it ends
    // here. Otherwise a waiter may sleep in the engine: wake it to look again.
    if (g->lastOfFreeAndComplete()) {
      delete g;
    } else {
      world.engine().notifyProgress();
    }
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Grequest_complete)

}  // extern "C"
