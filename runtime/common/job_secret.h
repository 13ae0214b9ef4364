#pragma once
// The per-job secret that authenticates the links between a job's ranks (zmq CURVE, see
// transport/link_security.h). zmpirun makes a fresh one for every job (libsodium randombytes) and
// hands it to its local ranks in ZMPI_JOB_SECRET; to remote ranks it travels inside the
// signed Launch, sealed (crypto_secretbox) with a key derived from the agents' secret, so
// it never crosses the network in the clear and is never on a command line or in a log.
#include <string>

#include "mpi/init/launch_contract.h"
#include "runtime/common/secret.h"

namespace zmpi::runtime {

// The variable a rank reads its job secret from (mpi/core/job_secret.h), named once in
// the launcher-to-rank contract.
inline const char* const kJobSecretVariable = contract::kJobSecret.name();

// 32 random bytes, hex-encoded (64 characters).
std::string newJobSecret();

// nonce || crypto_secretbox(jobSecret) under a key hashed from the agents' secret.
std::string sealJobSecret(const Secret& agentSecret, const std::string& jobSecret);
// The inverse; throws SecretError if the box does not open (another secret, or forged).
std::string openJobSecret(const Secret& agentSecret, const std::string& sealed);

}  // namespace zmpi::runtime
