#include "mpi/capi/validate.h"

namespace zmpi::mpi::capi {

void failNullComm() { fail(MPI_ERR_COMM, "communicator is MPI_COMM_NULL"); }

void failCount(int count, const char* name) {
  fail(MPI_ERR_COUNT, std::string(name) + " is negative (" + std::to_string(count) + ")");
}

void failNullType() { fail(MPI_ERR_TYPE, "datatype is MPI_DATATYPE_NULL"); }

void failNullBuffer(int count) { fail(MPI_ERR_BUFFER, "buffer is a null pointer with count " + std::to_string(count)); }

void failRank(const char* role, const Communicator& comm, int rank) {
  fail(MPI_ERR_RANK, std::string(role) + " rank " + std::to_string(rank) + " is not in the " +
                         (comm.isInter() ? "remote group" : "communicator") + " (size " +
                         std::to_string(comm.peerSize()) + ")");
}

void failIntercomm() {
  fail(MPI_ERR_COMM, "the communicator is an intercommunicator; this call needs an intracommunicator");
}

void failSendTag(int tag) { fail(MPI_ERR_TAG, "tag " + std::to_string(tag) + " is outside 0..MPI_TAG_UB"); }

void failRecvTag(int tag) {
  fail(MPI_ERR_TAG, "tag " + std::to_string(tag) + " is neither MPI_ANY_TAG nor in 0..MPI_TAG_UB");
}

}  // namespace zmpi::mpi::capi
