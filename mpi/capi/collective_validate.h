#pragma once
// Argument checks only collectives need, next to the shared ones in validate.h.
#include <mpi.h>

#include <cstddef>
#include <string>

#include "mpi/capi/validate.h"
#include "mpi/op/op.h"

namespace zmpi::mpi::capi {

inline void rootArg(const Communicator& comm, int root) {
  if (root < 0 || root >= comm.size()) {
    fail(MPI_ERR_ROOT, "root " + std::to_string(root) + " is not a rank of the communicator (size " +
                           std::to_string(comm.size()) + ")");
  }
}

// A buffer the standard never allows to be MPI_IN_PLACE (every receive buffer, and send
// buffers where in-place has no meaning), checked like bufferArg.
inline void dataArg(const void* buffer, int count, const Datatype& type, const char* name) {
  if (buffer == MPI_IN_PLACE)
    fail(MPI_ERR_BUFFER, std::string(name) + " is MPI_IN_PLACE, which this call does not allow here");
  bufferArg(buffer, count, type);
}

// The arrays of the v-variants: present, with one count per rank, none negative.
inline void countsArg(const Communicator& comm, const int* counts, const char* name) {
  if (counts == nullptr) fail(MPI_ERR_ARG, std::string(name) + " is a null pointer");
  for (int i = 0; i < comm.size(); ++i) countArg(counts[i], name);
}

inline void displacementsArg(const int* displacements, const char* name) {
  if (displacements == nullptr) fail(MPI_ERR_ARG, std::string(name) + " is a null pointer");
}

// The op, and that it applies to the type, so that every rank fails before sending
// anything rather than some mid-reduction. A predefined op is tried on one zeroed element
// (it throws MPI_ERR_OP for a type it does not define); user functions are never called
// on made-up data. The common case (a predefined op's table has the type) is a lookup.
inline Op& opArg(MPI_Op op, const Datatype& type) {
  Op& o = *opOf(op);
  constexpr std::ptrdiff_t kProbeBytes = 256;
  if (o.predefined() && type.size() > 0 && type.trueExtent() <= kProbeBytes && !o.knownToAccept(type)) {
    alignas(std::max_align_t) char in[kProbeBytes] = {};
    alignas(std::max_align_t) char inout[kProbeBytes] = {};
    o.apply(in - type.trueLb(), inout - type.trueLb(), 1, type);
  }
  return o;
}

// Reductions: the send buffer may be MPI_IN_PLACE (where allowed) but must not alias the
// receive buffer.
inline void distinctArg(const void* sendbuf, const void* recvbuf, int count) {
  if (count > 0 && sendbuf == recvbuf && sendbuf != MPI_BOTTOM) {
    fail(MPI_ERR_BUFFER, "send and receive buffers are the same; use MPI_IN_PLACE");
  }
}

}  // namespace zmpi::mpi::capi
