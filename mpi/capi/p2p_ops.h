#pragma once
// Starting point-to-point operations from C arguments: shared by the blocking,
// nonblocking and persistent entry points.
#include <mpi.h>

#include "mpi/core/request.h"

namespace zmpi::mpi::capi {

// Validates the arguments and fills a fresh request without holding a reference on its
// communicator or datatype: for blocking calls, which keep the request on the stack for
// exactly as long as the call (the handles cannot be freed meanwhile); such a request is
// transient (Request::transient).
void initSendRequest(Request& request, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     SendMode mode);
void initRecvRequest(Request& request, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm);

// MPI_Send's common case -- standard or ready mode, contiguous data within the eager
// limit -- written straight to the fabric, with no request: true when sent (or sent to
// MPI_PROC_NULL). False when the general path must run. Validates the arguments.
bool trySendEagerNow(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
// The same for a fresh send request from initSendRequest: true when sent, and then the
// request is done.
bool trySendEagerNow(Request& send);

// Validates the arguments and builds an (inactive) request that holds its communicator
// and datatype until deleted.
Request* makeSendRequest(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         SendMode mode);
Request* makeRecvRequest(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm);

// Starts (or restarts, for persistent requests) an operation.
void startRequest(Request& request);

// Blocks until done; runs nonblocking-collective and generalized progress as needed.
void waitRequest(Request& request);
bool testRequest(Request& request);

// Copies the status out and releases the request as MPI_Wait/MPI_Test do (non-persistent
// ones are freed and the handle set to MPI_REQUEST_NULL). Returns the status's error.
int finishRequest(MPI_Request* handle, MPI_Status* status);

// A completed request whose status says "nothing happened" (MPI_PROC_NULL peers).
Request* makeProcNullRequest(Request::Kind kind);

}  // namespace zmpi::mpi::capi
