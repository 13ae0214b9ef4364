#pragma once
// The MPI error code a call fails with (the MpiError it throws), or MPI_SUCCESS.
#include <mpi.h>

#include "mpi/core/error.h"

namespace zmpi::mpi::testing {

template <typename Body>
int errorCodeOf(Body&& body) {
  try {
    body();
  } catch (const MpiError& error) {
    return error.code();
  }
  return MPI_SUCCESS;
}

}  // namespace zmpi::mpi::testing
