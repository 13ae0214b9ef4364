#pragma once
// The job secret as a rank receives it, and the link credentials derived from it
// (transport/link_security.h): ZMPI_JOB_SECRET (zmpirun sets it; by hand, any text of at
// least 16 bytes, the same for every rank), or ZMPI_JOB_SECRET_FILE (a file only its
// owner can read, as for the agents' secret). The variable is wiped and removed from the
// environment once read, so programs the rank starts do not inherit it. ZMPI_ENCRYPT=1
// (zmpirun --encrypt sets it for every rank) chooses CURVE instead of PLAIN; every rank
// of a job must agree (a rank of the other mode is refused like a stranger).
#include <memory>

#include "transport/link_security.h"

namespace zmpi::mpi {

// Null when neither variable is set; fails (MPI error naming the variable) when one is
// set but unusable.
std::shared_ptr<const transport::LinkKeys> takeJobKeys();

// The credentials derived from `secret` (wiped after use), in the mode ZMPI_ENCRYPT asks
// for; fails (MPI error) when it is unusable.
std::shared_ptr<const transport::LinkKeys> jobKeysFromSecret(std::string secret);

// A new secret (32 random bytes from libsodium, as hex) for a job that was started without
// one, by a cluster manager: its rank 0 makes it and hands it out through the manager.
std::string freshJobSecret();

}  // namespace zmpi::mpi
