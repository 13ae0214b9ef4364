// One-sided operations: Put, Get, Accumulate, Get_accumulate, Fetch_and_op,
// Compare_and_swap, and their request-based forms.
//
// Request-based operations return a request that is already complete: puts and
// accumulates are locally complete once issued (the origin data is packed then), and
// MPI_Rget/MPI_Rget_accumulate wait for their data before returning. The engine wakes
// MPI_Wait only for point-to-point progress, not for one-sided replies, so a request that
// completed later could not be waited on; see mpi/rma/README.md.
#include "mpi/capi/validate.h"
#include "mpi/capi/win_entry.h"
#include "mpi/op/op.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

rma::Buffer originArg(const void* buffer, int count, MPI_Datatype type, const char* name) {
  countArg(count, name);
  return {buffer, count, &typeArg(type)};
}

int targetCountArg(int count) {
  countArg(count, "target_count");
  return count;
}

MPI_Request completedRequest() {
  auto* request = new Request(Request::Kind::Completed);
  request->status.MPI_ERROR = MPI_SUCCESS;
  request->done.store(true);
  return request->handle();
}

void putOp(MPI_Win win, const void* origin, int originCount, MPI_Datatype originType, int target, MPI_Aint disp,
           int targetCount, MPI_Datatype targetType) {
  rma::Window& w = winArg(win);
  w.put(originArg(origin, originCount, originType, "origin_count"), target, disp, targetCountArg(targetCount),
        typeArg(targetType));
}

void getOp(MPI_Win win, void* origin, int originCount, MPI_Datatype originType, int target, MPI_Aint disp,
           int targetCount, MPI_Datatype targetType) {
  rma::Window& w = winArg(win);
  countArg(originCount, "origin_count");
  w.get(origin, originCount, typeArg(originType), target, disp, targetCountArg(targetCount), typeArg(targetType));
}

void accumulateOp(MPI_Win win, const void* origin, int originCount, MPI_Datatype originType, int target, MPI_Aint disp,
                  int targetCount, MPI_Datatype targetType, MPI_Op op) {
  rma::Window& w = winArg(win);
  w.accumulate(originArg(origin, originCount, originType, "origin_count"), target, disp, targetCountArg(targetCount),
               typeArg(targetType), *opOf(op));
}

void getAccumulateOp(MPI_Win win, const void* origin, int originCount, MPI_Datatype originType, void* result,
                     int resultCount, MPI_Datatype resultType, int target, MPI_Aint disp, int targetCount,
                     MPI_Datatype targetType, MPI_Op op) {
  rma::Window& w = winArg(win);
  const Op& o = *opOf(op);
  // With MPI_NO_OP the origin arguments are ignored (MPI 3.1 section 11.3.4).
  const rma::Buffer in = op == MPI_NO_OP ? rma::Buffer{nullptr, 0, &typeArg(targetType)}
                                         : originArg(origin, originCount, originType, "origin_count");
  countArg(resultCount, "result_count");
  w.getAccumulate(in, result, resultCount, typeArg(resultType), target, disp, targetCountArg(targetCount),
                  typeArg(targetType), o);
}

}  // namespace

extern "C" {

int PMPI_Put(const void* origin, int originCount, MPI_Datatype originType, int target, MPI_Aint disp, int targetCount,
             MPI_Datatype targetType, MPI_Win win) {
  return guardedWin("MPI_Put", win, [&] {
    putOp(win, origin, originCount, originType, target, disp, targetCount, targetType);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Put)

int PMPI_Get(void* origin, int originCount, MPI_Datatype originType, int target, MPI_Aint disp, int targetCount,
             MPI_Datatype targetType, MPI_Win win) {
  return guardedWin("MPI_Get", win, [&] {
    getOp(win, origin, originCount, originType, target, disp, targetCount, targetType);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Get)

int PMPI_Accumulate(const void* origin, int originCount, MPI_Datatype originType, int target, MPI_Aint disp,
                    int targetCount, MPI_Datatype targetType, MPI_Op op, MPI_Win win) {
  return guardedWin("MPI_Accumulate", win, [&] {
    accumulateOp(win, origin, originCount, originType, target, disp, targetCount, targetType, op);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Accumulate)

int PMPI_Get_accumulate(const void* origin, int originCount, MPI_Datatype originType, void* result, int resultCount,
                        MPI_Datatype resultType, int target, MPI_Aint disp, int targetCount, MPI_Datatype targetType,
                        MPI_Op op, MPI_Win win) {
  return guardedWin("MPI_Get_accumulate", win, [&] {
    getAccumulateOp(win, origin, originCount, originType, result, resultCount, resultType, target, disp, targetCount,
                    targetType, op);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Get_accumulate)

int PMPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op op,
                      MPI_Win win) {
  return guardedWin("MPI_Fetch_and_op", win, [&] {
    getAccumulateOp(win, origin, 1, type, result, 1, type, target, disp, 1, type, op);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Fetch_and_op)

int PMPI_Compare_and_swap(const void* origin, const void* compare, void* result, MPI_Datatype type, int target,
                          MPI_Aint disp, MPI_Win win) {
  return guardedWin("MPI_Compare_and_swap", win, [&] {
    rma::Window& w = winArg(win);
    w.compareAndSwap(origin, compare, result, typeArg(type), target, disp);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Compare_and_swap)

int PMPI_Rput(const void* origin, int originCount, MPI_Datatype originType, int target, MPI_Aint disp, int targetCount,
              MPI_Datatype targetType, MPI_Win win, MPI_Request* request) {
  return guardedWin("MPI_Rput", win, [&] {
    requestPointerArg(request);
    putOp(win, origin, originCount, originType, target, disp, targetCount, targetType);
    *request = completedRequest();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Rput)

int PMPI_Rget(void* origin, int originCount, MPI_Datatype originType, int target, MPI_Aint disp, int targetCount,
              MPI_Datatype targetType, MPI_Win win, MPI_Request* request) {
  return guardedWin("MPI_Rget", win, [&] {
    requestPointerArg(request);
    getOp(win, origin, originCount, originType, target, disp, targetCount, targetType);
    winArg(win).completeLocally(target);
    *request = completedRequest();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Rget)

int PMPI_Raccumulate(const void* origin, int originCount, MPI_Datatype originType, int target, MPI_Aint disp,
                     int targetCount, MPI_Datatype targetType, MPI_Op op, MPI_Win win, MPI_Request* request) {
  return guardedWin("MPI_Raccumulate", win, [&] {
    requestPointerArg(request);
    accumulateOp(win, origin, originCount, originType, target, disp, targetCount, targetType, op);
    *request = completedRequest();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Raccumulate)

int PMPI_Rget_accumulate(const void* origin, int originCount, MPI_Datatype originType, void* result, int resultCount,
                         MPI_Datatype resultType, int target, MPI_Aint disp, int targetCount, MPI_Datatype targetType,
                         MPI_Op op, MPI_Win win, MPI_Request* request) {
  return guardedWin("MPI_Rget_accumulate", win, [&] {
    requestPointerArg(request);
    getAccumulateOp(win, origin, originCount, originType, result, resultCount, resultType, target, disp, targetCount,
                    targetType, op);
    winArg(win).completeLocally(target);
    *request = completedRequest();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Rget_accumulate)

}  // extern "C"
