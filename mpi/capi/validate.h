#pragma once
// Argument checks shared by the entry points. Each throws MpiError with the MPI error
// class the standard names and a message that names the argument and its value.
#include <mpi.h>

#include <climits>
#include <string>

#include "mpi/capi/runtime.h"
#include "mpi/comm/communicator.h"
#include "mpi/core/error.h"
#include "mpi/datatype/datatype.h"

namespace zmpi::mpi::capi {

// The largest tag a program may use (the MPI_TAG_UB attribute).
inline constexpr int kTagUpperBound = INT_MAX;

// The messages are built out of line (validate.cc): the checks themselves then inline into
// every entry point, which matters on the small-message path (a few dozen instructions a
// call when each check was a call of its own).
[[noreturn, gnu::cold]] void failNullComm();
[[noreturn, gnu::cold]] void failCount(int count, const char* name);
[[noreturn, gnu::cold]] void failNullType();
[[noreturn, gnu::cold]] void failNullBuffer(int count);
[[noreturn, gnu::cold]] void failRank(const char* role, const Communicator& comm, int rank);
[[noreturn, gnu::cold]] void failSendTag(int tag);
[[noreturn, gnu::cold]] void failIntercomm();
[[noreturn, gnu::cold]] void failRecvTag(int tag);

inline Communicator& commArg(MPI_Comm comm) {
  requireWorld();
  if (comm == MPI_COMM_NULL) [[unlikely]]
    failNullComm();
  return *communicatorOf(comm);
}

// Calls the standard defines on intracommunicators only (topologies, windows, files,
// scans, ...): MPI_ERR_COMM for an intercommunicator, as Open MPI and MPICH say.
inline Communicator& intraCommArg(MPI_Comm comm) {
  Communicator& c = commArg(comm);
  if (c.isInter()) [[unlikely]]
    failIntercomm();
  return c;
}

// MPI_ERR_COMM for an intracommunicator where the call needs an intercommunicator.
inline Communicator& interCommArg(MPI_Comm comm) {
  Communicator& c = commArg(comm);
  if (!c.isInter()) [[unlikely]]
    fail(MPI_ERR_COMM, "the communicator is not an intercommunicator");
  return c;
}

inline void countArg(int count, const char* name = "count") {
  if (count < 0) [[unlikely]]
    failCount(count, name);
}

inline Datatype& typeArg(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) [[unlikely]]
    failNullType();
  return *committedDatatypeOf(type);
}

// A null buffer is an error only when data would be read or written through it: MPI_BOTTOM
// (also null) is legal with a derived type of absolute addresses.
inline void bufferArg(const void* buffer, int count, const Datatype& type) {
  if (buffer == nullptr && count > 0 && type.size() > 0 && type.predefined()) [[unlikely]]
    failNullBuffer(count);
}

inline void destArg(const Communicator& comm, int rank) {
  if (rank == MPI_PROC_NULL) return;
  if (rank < 0 || rank >= comm.peerSize()) [[unlikely]]
    failRank("destination", comm, rank);
}

inline void sourceArg(const Communicator& comm, int rank) {
  if (rank == MPI_PROC_NULL || rank == MPI_ANY_SOURCE) return;
  if (rank < 0 || rank >= comm.peerSize()) [[unlikely]]
    failRank("source", comm, rank);
}

inline void sendTagArg(int tag) {
  if (tag < 0 || tag > kTagUpperBound) [[unlikely]]
    failSendTag(tag);
}

inline void recvTagArg(int tag) {
  if (tag != MPI_ANY_TAG && (tag < 0 || tag > kTagUpperBound)) [[unlikely]]
    failRecvTag(tag);
}

// A missing MPI_Request* / MPI_Request[] is MPI_ERR_REQUEST, as Open MPI reports it.
inline void requestPointerArg(const void* pointer, const char* name = "request") {
  if (pointer == nullptr) fail(MPI_ERR_REQUEST, std::string(name) + " is a null pointer");
}

inline void pointerArg(const void* pointer, const char* name) {
  if (pointer == nullptr) fail(MPI_ERR_ARG, std::string(name) + " is a null pointer");
}

}  // namespace zmpi::mpi::capi
