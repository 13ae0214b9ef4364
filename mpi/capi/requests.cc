// Completion: Wait/Test and their -all/-any/-some forms, Start, Cancel, Request_free,
// and the status queries.
#include <algorithm>
#include <vector>

#include "mpi/capi/entry.h"
#include "mpi/capi/grequest.h"
#include "mpi/capi/p2p_ops.h"
#include "mpi/capi/validate.h"
#include "mpi/core/world.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

// Active: a request that can still complete (not null, not an inactive persistent one).
bool isActive(Request* request) { return request != nullptr && (!request->persistent || request->active); }

// Blocks until at least one of the active requests is done; returns false if none is active.
bool waitForAny(int count, MPI_Request* requests) {
  std::vector<Request*> active;
  for (int i = 0; i < count; ++i) {
    Request* request = requestOf(requests[i]);
    if (isActive(request)) active.push_back(request);
  }
  if (active.empty()) return false;
  auto anyDone = [&] {
    for (Request* request : active) {
      if (testRequest(*request)) return true;
    }
    return false;
  };
  if (anyDone()) return true;
  // Spin first only if a request may complete through the rings (Engine::spinsFor).
  Engine& engine = requireWorld().engine();
  const bool spin = std::any_of(active.begin(), active.end(), [&](const Request* request) {
    const bool pointToPoint = request->kind == Request::Kind::Send || request->kind == Request::Kind::Recv;
    return !pointToPoint || engine.spinsFor(Engine::waitedPeer(*request));
  });
  // The largest transfer lengthens the spin as in MPI_Wait (Engine::spinUntil).
  uint64_t largest = 0;
  for (const Request* request : active) largest = std::max(largest, request->bytes());
  engine.waitUntil(anyDone, spin, true, largest);
  return true;
}

// MPI_Request_free of a generalized request: free_fn now if the program completed it
// (returning free_fn's error), else when it does (MPI_Grequest_complete).
int freeGeneralized(GeneralizedRequest* request) {
  request->freed = true;
  if (!request->lastOfFreeAndComplete()) return MPI_SUCCESS;
  const int error = request->runFree();
  delete request;
  if (error != MPI_SUCCESS) fail(error, "the generalized request's free_fn failed");
  return MPI_SUCCESS;
}

int storeStatus(MPI_Status* statuses, int index, MPI_Request* handle) {
  return finishRequest(handle, statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[index]);
}

}  // namespace

extern "C" {

int PMPI_Wait(MPI_Request* request, MPI_Status* status) {
  return guarded("MPI_Wait", [&] {
    requestPointerArg(request);
    Request* r = requestOf(*request);
    if (isActive(r)) waitRequest(*r);
    MPI_Comm comm = r && r->comm ? r->comm->handle() : MPI_COMM_NULL;
    int error = finishRequest(request, status);
    if (error != MPI_SUCCESS) return raiseCommError(comm, "MPI_Wait", error, "the request completed with an error");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Wait)

int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  return guarded("MPI_Test", [&] {
    requestPointerArg(request);
    pointerArg(flag, "flag");
    Request* r = requestOf(*request);
    *flag = !isActive(r) || testRequest(*r);
    if (!*flag) return MPI_SUCCESS;
    MPI_Comm comm = r && r->comm ? r->comm->handle() : MPI_COMM_NULL;
    int error = finishRequest(request, status);
    if (error != MPI_SUCCESS) return raiseCommError(comm, "MPI_Test", error, "the request completed with an error");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Test)

int PMPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return guarded("MPI_Waitall", [&] {
    countArg(count);
    if (count > 0) requestPointerArg(requests, "requests");
    for (int i = 0; i < count; ++i) {
      Request* r = requestOf(requests[i]);
      if (isActive(r)) waitRequest(*r);
    }
    bool anyError = false;
    for (int i = 0; i < count; ++i) {
      int error = storeStatus(statuses, i, &requests[i]);
      anyError |= error != MPI_SUCCESS;
    }
    if (anyError) fail(MPI_ERR_IN_STATUS, "one or more requests failed; see the statuses");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Waitall)

int PMPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  return guarded("MPI_Testall", [&] {
    countArg(count);
    pointerArg(flag, "flag");
    if (count > 0) requestPointerArg(requests, "requests");
    *flag = 1;
    for (int i = 0; i < count; ++i) {
      Request* r = requestOf(requests[i]);
      if (isActive(r) && !testRequest(*r)) *flag = 0;
    }
    if (!*flag) return MPI_SUCCESS;
    bool anyError = false;
    for (int i = 0; i < count; ++i) anyError |= storeStatus(statuses, i, &requests[i]) != MPI_SUCCESS;
    if (anyError) fail(MPI_ERR_IN_STATUS, "one or more requests failed; see the statuses");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Testall)

int PMPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return guarded("MPI_Waitany", [&] {
    countArg(count);
    pointerArg(index, "index");
    if (count > 0) requestPointerArg(requests, "requests");
    if (!waitForAny(count, requests)) {
      *index = MPI_UNDEFINED;
      setEmptyStatus(status);
      return MPI_SUCCESS;
    }
    for (int i = 0; i < count; ++i) {
      Request* r = requestOf(requests[i]);
      if (isActive(r) && testRequest(*r)) {
        *index = i;
        return finishRequest(&requests[i], status);
      }
    }
    fail(MPI_ERR_INTERN, "waitany woke without a completed request");
  });
}
ZMPI_ALIAS(MPI_Waitany)

int PMPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  return guarded("MPI_Testany", [&] {
    countArg(count);
    pointerArg(index, "index");
    pointerArg(flag, "flag");
    bool anyActive = false;
    for (int i = 0; i < count; ++i) {
      Request* r = requestOf(requests[i]);
      if (!isActive(r)) continue;
      anyActive = true;
      if (testRequest(*r)) {
        *flag = 1;
        *index = i;
        return finishRequest(&requests[i], status);
      }
    }
    *flag = anyActive ? 0 : 1;
    *index = MPI_UNDEFINED;
    if (!anyActive) setEmptyStatus(status);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Testany)

static int completeSome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  int done = 0;
  bool anyError = false;
  for (int i = 0; i < incount; ++i) {
    Request* r = requestOf(requests[i]);
    if (isActive(r) && testRequest(*r)) {
      indices[done] = i;
      anyError |= storeStatus(statuses, done, &requests[i]) != MPI_SUCCESS;
      ++done;
    }
  }
  *outcount = done;
  if (anyError) fail(MPI_ERR_IN_STATUS, "one or more requests failed; see the statuses");
  return MPI_SUCCESS;
}

int PMPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return guarded("MPI_Waitsome", [&] {
    countArg(incount, "incount");
    pointerArg(outcount, "outcount");
    if (!waitForAny(incount, requests)) {
      *outcount = MPI_UNDEFINED;
      return MPI_SUCCESS;
    }
    return completeSome(incount, requests, outcount, indices, statuses);
  });
}
ZMPI_ALIAS(MPI_Waitsome)

int PMPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return guarded("MPI_Testsome", [&] {
    countArg(incount, "incount");
    pointerArg(outcount, "outcount");
    bool anyActive = false;
    for (int i = 0; i < incount; ++i) anyActive |= isActive(requestOf(requests[i]));
    if (!anyActive) {
      *outcount = MPI_UNDEFINED;
      return MPI_SUCCESS;
    }
    return completeSome(incount, requests, outcount, indices, statuses);
  });
}
ZMPI_ALIAS(MPI_Testsome)

int PMPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  return guarded("MPI_Request_get_status", [&] {
    pointerArg(flag, "flag");
    Request* r = requestOf(request);
    if (!isActive(r)) {
      *flag = 1;
      setEmptyStatus(status);
      return MPI_SUCCESS;
    }
    *flag = testRequest(*r);
    if (*flag) copyStatus(status, r->status);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Request_get_status)

int PMPI_Start(MPI_Request* request) {
  return guarded("MPI_Start", [&] {
    requestPointerArg(request);
    Request* r = requestOf(*request);
    if (r == nullptr || !r->persistent) fail(MPI_ERR_REQUEST, "MPI_Start needs a persistent request");
    startRequest(*r);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Start)

int PMPI_Startall(int count, MPI_Request requests[]) {
  return guarded("MPI_Startall", [&] {
    countArg(count);
    for (int i = 0; i < count; ++i) {
      Request* r = requestOf(requests[i]);
      if (r == nullptr || !r->persistent) fail(MPI_ERR_REQUEST, "MPI_Startall needs persistent requests");
      startRequest(*r);
    }
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Startall)

int PMPI_Request_free(MPI_Request* request) {
  return guarded("MPI_Request_free", [&] {
    requestPointerArg(request);
    Request* r = requestOf(*request);
    if (r == nullptr) fail(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
    if (r->kind == Request::Kind::Generalized) {
      *request = MPI_REQUEST_NULL;
      return freeGeneralized(static_cast<GeneralizedRequest*>(r));
    }
    if (r->kind == Request::Kind::Send || r->kind == Request::Kind::Recv) {
      if (r->comm && !(r->persistent && !r->active) && !r->done.load()) {
        r->comm->world().engine().freeRequest(*r);
      } else {
        delete r;
      }
    } else if (testRequest(*r)) {
      delete r;
    } else {
      fail(MPI_ERR_REQUEST, "cannot free an incomplete collective request");
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Request_free)

int PMPI_Cancel(MPI_Request* request) {
  return guarded("MPI_Cancel", [&] {
    requestPointerArg(request);
    Request* r = requestOf(*request);
    if (r == nullptr) fail(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
    // Receives not yet matched are cancelled; a send always completes normally
    // (MPI allows a cancel to fail; MPI_Test_cancelled then reports false).
    if (r->kind == Request::Kind::Recv && isActive(r) && !r->done.load() && r->comm) {
      r->comm->world().engine().cancel(*r);
    } else if (r->kind == Request::Kind::Generalized) {
      static_cast<GeneralizedRequest*>(r)->cancel();
    }
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Cancel)

int PMPI_Test_cancelled(const MPI_Status* status, int* flag) {
  return guarded("MPI_Test_cancelled", [&] {
    pointerArg(status, "status");
    pointerArg(flag, "flag");
    *flag = status->_cancelled != 0;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Test_cancelled)

int PMPI_Get_count(const MPI_Status* status, MPI_Datatype type, int* count) {
  return guarded("MPI_Get_count", [&] {
    pointerArg(status, "status");
    pointerArg(count, "count");
    Datatype* t = datatypeOf(type);
    if (t->size() == 0) {
      *count = status->_ucount == 0 ? 0 : MPI_UNDEFINED;
    } else {
      *count = status->_ucount % t->size() ? MPI_UNDEFINED : static_cast<int>(status->_ucount / t->size());
    }
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Get_count)

static MPI_Count elementsOf(const MPI_Status* status, Datatype* t) {
  // Exact for partial messages of mixed structs: the type map says how many basic
  // elements the received bytes hold (MPI_UNDEFINED if they end inside one).
  auto elements = t->elementsIn(status->_ucount);
  return elements ? static_cast<MPI_Count>(*elements) : MPI_UNDEFINED;
}

int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype type, int* count) {
  return guarded("MPI_Get_elements", [&] {
    pointerArg(status, "status");
    pointerArg(count, "count");
    *count = static_cast<int>(elementsOf(status, datatypeOf(type)));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Get_elements)

int PMPI_Get_elements_x(const MPI_Status* status, MPI_Datatype type, MPI_Count* count) {
  return guarded("MPI_Get_elements_x", [&] {
    pointerArg(status, "status");
    pointerArg(count, "count");
    *count = elementsOf(status, datatypeOf(type));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Get_elements_x)

int PMPI_Status_set_elements(MPI_Status* status, MPI_Datatype type, int count) {
  return guarded("MPI_Status_set_elements", [&] {
    pointerArg(status, "status");
    countArg(count);
    status->_ucount = datatypeOf(type)->bytesOfElements(static_cast<std::size_t>(count));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Status_set_elements)

int PMPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype type, MPI_Count count) {
  return guarded("MPI_Status_set_elements_x", [&] {
    pointerArg(status, "status");
    if (count < 0) fail(MPI_ERR_COUNT, "count is negative");
    status->_ucount = datatypeOf(type)->bytesOfElements(static_cast<std::size_t>(count));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Status_set_elements_x)

int PMPI_Status_set_cancelled(MPI_Status* status, int flag) {
  return guarded("MPI_Status_set_cancelled", [&] {
    pointerArg(status, "status");
    status->_cancelled = flag;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Status_set_cancelled)

}  // extern "C"
