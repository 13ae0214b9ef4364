#pragma once
// Starting point-to-point operations from C arguments: shared by the blocking,
// nonblocking and persistent entry points.
#include <mpi.h>

#include "mpi/core/request.h"

namespace zmpi::mpi::capi {

// Validates the arguments and builds an (inactive) request.
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
