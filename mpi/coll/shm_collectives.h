#pragma once
// Small blocking collectives through the communicator's shared-memory area (shm_area.h),
// when all its ranks run on this host: each rank copies its operand into its own slot,
// raises its flag, waits for the flags it needs and reads the slots it needs -- a few
// cache-line transfers instead of point-to-point messages (MPICH's POSIX release/gather
// collectives and Open MPI's coll/sm do likewise).
//
// Each function returns false, having done nothing, when the call is not one it serves:
// the operand does not fit a slot (ShmArea::kSlotBytes: a bcast's, reduction's or
// allgather block's bytes; all of an alltoall rank's blocks), nothing moves, or the
// communicator has no area (shmAreaOf). The caller then goes direct or runs the plan. The
// choice depends only on what is the same on every rank (byte counts by the type
// signatures MPI requires to match, the communicator, the job's environment), so every
// rank takes the same path; the first call that qualifies sets the area up (on every
// rank, collectively).
//
// Derived datatypes are packed into the slots and unpacked out of them; reductions
// combine packed operands (Op::applyPacked). Every rank reduces every rank's operand in
// the same order, rank 0's leftmost: results are the same bits on every rank, and in rank
// order for non-commutative ops.
//
// Arguments are the MPI call's, already validated (capi/).
#include "mpi/comm/communicator.h"
#include "mpi/datatype/datatype.h"
#include "mpi/op/op.h"

namespace zmpi::mpi::coll {

bool barrierShm(Communicator& comm);
bool bcastShm(Communicator& comm, void* buffer, int count, const Datatype& type, int root);
bool reduceShm(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
               int root);
bool allreduceShm(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                  const Op& op);
bool allgatherShm(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                  int recvcount, const Datatype& recvtype);
bool alltoallShm(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                 int recvcount, const Datatype& recvtype);

}  // namespace zmpi::mpi::coll
