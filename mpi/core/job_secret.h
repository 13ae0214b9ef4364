#pragma once
// The job secret as a rank receives it, and the CURVE keys derived from it
// (transport/curve.h): ZMPI_JOB_SECRET (zmpirun sets it; by hand, any text of at least 16
// bytes, the same for every rank), or ZMPI_JOB_SECRET_FILE (a file only its owner can
// read, as for the agents' secret). The variable is wiped and removed from the
// environment once read, so programs the rank starts do not inherit it.
#include <memory>

#include "transport/curve.h"

namespace zmpi::mpi {

// Null when neither variable is set; fails (MPI error naming the variable) when one is
// set but unusable.
std::shared_ptr<const transport::CurveKeys> takeJobKeys();

}  // namespace zmpi::mpi
