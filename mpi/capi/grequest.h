#pragma once
// A generalized request (MPI_Grequest_start): the program's callbacks behind a Request.
// Wait/Test see it through Request::progress(), which runs query_fn once the program
// called MPI_Grequest_complete; the destructor runs free_fn.
#include <mpi.h>

#include <atomic>

#include "mpi/core/request.h"

namespace zmpi::mpi::capi {

class GeneralizedRequest : public Request {
 public:
  GeneralizedRequest(MPI_Grequest_query_function* query, MPI_Grequest_free_function* free,
                     MPI_Grequest_cancel_function* cancel, void* extraState);
  ~GeneralizedRequest() override;

  // Done once completed by the program; fills `status` through query_fn the first time.
  bool progress() override;
  // MPI_Cancel: cancel_fn(extra_state, complete); throws its error code.
  void cancel();
  // free_fn now (MPI_Request_free of a completed request), returning its error code; the
  // destructor then skips it.
  int runFree();
  // MPI_Request_free and MPI_Grequest_complete each call this once, on any threads; the
  // second to come deletes the request (true: the caller must delete it).
  bool lastOfFreeAndComplete() { return ends_.fetch_add(1, std::memory_order_acq_rel) == 1; }

 private:
  MPI_Grequest_query_function* query_;
  MPI_Grequest_free_function* free_;
  MPI_Grequest_cancel_function* cancel_;
  void* extraState_;
  bool queried_ = false;
  bool freeCalled_ = false;
  std::atomic<int> ends_{0};
};

}  // namespace zmpi::mpi::capi
