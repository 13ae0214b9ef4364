#pragma once
// Argument checks shared by the entry points. Each throws MpiError with the MPI error
// class the standard names and a message that names the argument and its value.
#include <climits>
#include <string>

#include <mpi.h>

#include "mpi/capi/runtime.h"
#include "mpi/comm/communicator.h"
#include "mpi/core/error.h"
#include "mpi/datatype/datatype.h"

namespace zmpi::mpi::capi {

// The largest tag a program may use (the MPI_TAG_UB attribute).
inline constexpr int kTagUpperBound = INT_MAX;

inline Communicator& commArg(MPI_Comm comm) {
  requireWorld();
  if (comm == MPI_COMM_NULL) fail(MPI_ERR_COMM, "communicator is MPI_COMM_NULL");
  return *communicatorOf(comm);
}

inline void countArg(int count, const char* name = "count") {
  if (count < 0) fail(MPI_ERR_COUNT, std::string(name) + " is negative (" + std::to_string(count) + ")");
}

inline Datatype& typeArg(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) fail(MPI_ERR_TYPE, "datatype is MPI_DATATYPE_NULL");
  return *committedDatatypeOf(type);
}

// A null buffer is an error only when data would be read or written through it: MPI_BOTTOM
// (also null) is legal with a derived type of absolute addresses.
inline void bufferArg(const void* buffer, int count, const Datatype& type) {
  if (buffer == nullptr && count > 0 && type.size() > 0 && type.predefined()) {
    fail(MPI_ERR_BUFFER, "buffer is a null pointer with count " + std::to_string(count));
  }
}

inline void destArg(const Communicator& comm, int rank) {
  if (rank == MPI_PROC_NULL) return;
  if (rank < 0 || rank >= comm.size()) {
    fail(MPI_ERR_RANK, "destination rank " + std::to_string(rank) + " is not in the communicator (size " +
                           std::to_string(comm.size()) + ")");
  }
}

inline void sourceArg(const Communicator& comm, int rank) {
  if (rank == MPI_PROC_NULL || rank == MPI_ANY_SOURCE) return;
  if (rank < 0 || rank >= comm.size()) {
    fail(MPI_ERR_RANK, "source rank " + std::to_string(rank) + " is not in the communicator (size " +
                           std::to_string(comm.size()) + ")");
  }
}

inline void sendTagArg(int tag) {
  if (tag < 0 || tag > kTagUpperBound) {
    fail(MPI_ERR_TAG, "tag " + std::to_string(tag) + " is outside 0..MPI_TAG_UB");
  }
}

inline void recvTagArg(int tag) {
  if (tag != MPI_ANY_TAG && (tag < 0 || tag > kTagUpperBound)) {
    fail(MPI_ERR_TAG, "tag " + std::to_string(tag) + " is neither MPI_ANY_TAG nor in 0..MPI_TAG_UB");
  }
}

// A missing MPI_Request* / MPI_Request[] is MPI_ERR_REQUEST, as Open MPI reports it.
inline void requestPointerArg(const void* pointer, const char* name = "request") {
  if (pointer == nullptr) fail(MPI_ERR_REQUEST, std::string(name) + " is a null pointer");
}

inline void pointerArg(const void* pointer, const char* name) {
  if (pointer == nullptr) fail(MPI_ERR_ARG, std::string(name) + " is a null pointer");
}

}  // namespace zmpi::mpi::capi
