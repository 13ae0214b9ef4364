#pragma once
// Blocking collectives above a slot (ShmArea::kSlotBytes) through the communicator's
// shared-memory area, when all its ranks run on this host: the operand moves in rounds of
// up to a chunk (ShmArea::chunkBytes) through each rank's staging ring -- the writer copies
// a chunk in, raises `wrote`, and the readers copy it out and raise `read` -- so every byte
// is copied twice, as through the point-to-point rings, but without messages, matching or
// rendezvous, and pipelined: a writer runs up to ShmArea::kChunks rounds ahead of its
// slowest reader (Open MPI's coll/sm and MPICH's POSIX collectives stage likewise).
//  - bcast: the root writes, the others read.
//  - allgather: every rank writes its block's chunk and reads everyone else's.
//  - alltoall: not in rounds but through pair regions (the ring cut into one region per
//    reader, ShmArea::beginPairs): every rank stages pieces of its blocks for whichever
//    reader has room and takes pieces from whichever writer has staged some, so pairs never
//    wait for each other to be scheduled together (4 ranks on 2 cores); in place, a piece
//    is taken only once this rank has staged the bytes it overwrites.
//  - allreduce: every rank writes its operand's chunk, reduces one p-th of it (elements
//    split at element boundaries) over all ranks' chunks, rank 0's leftmost as the slot
//    path does (inout = chunk q op inout, right to left), writes that part back into its
//    own chunk, raises `reduced`, and copies everyone's parts out: each element is
//    computed once, so every rank has the same bits, in rank order for non-commutative ops.
//
// Derived datatypes are packed into scratch once per call and unpacked once after (as the
// plans do), so every rank takes this path whatever its own type's layout. The caller
// (shm_collectives.cc) decides which calls come here, from what every rank sees alike:
// byte counts, the communicator, the environment (select.h). MPI_IN_PLACE
// is passed as a null sendbuf. Allreduce needs ShmArea::chunkBytes() >= the type's size.
// Arguments are the MPI call's, already validated (capi/), send and receive bytes equal.
#include "mpi/coll/shm_area.h"
#include "mpi/datatype/datatype.h"
#include "mpi/op/op.h"

namespace zmpi::mpi::coll {

void bcastShmLarge(ShmArea& area, void* buffer, std::size_t count, const Datatype& type, int root);
void allgatherShmLarge(ShmArea& area, const void* sendbuf, std::size_t sendcount, const Datatype* sendtype,
                       void* recvbuf, std::size_t recvcount, const Datatype& recvtype);
void alltoallShmLarge(ShmArea& area, const void* sendbuf, std::size_t sendcount, const Datatype* sendtype,
                      void* recvbuf, std::size_t recvcount, const Datatype& recvtype);
void allreduceShmLarge(ShmArea& area, const void* sendbuf, void* recvbuf, std::size_t count, const Datatype& type,
                       const Op& op);

}  // namespace zmpi::mpi::coll
