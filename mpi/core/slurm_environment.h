#pragma once
// The last resort under Slurm's srun without a PMI (`srun --mpi=none`, or a site whose
// MpiDefault is none): every task reads its rank and the world size from SLURM_PROCID /
// SLURM_NTASKS; task 0 (placed on the first node of SLURM_NODELIST by srun's block
// distribution) hosts the rendezvous on a port taken from ZMPI_RENDEZVOUS_PORT, or derived
// from SLURM_JOB_ID and SLURM_STEP_ID. A derived port can still be taken; `srun
// --mpi=pmix` (or pmi2) needs no port at all and is what the README tells users.
#include <optional>
#include <string>

namespace zmpi::mpi {

struct SlurmBootstrap {
  int rank;
  int size;
  std::string jobId;
  std::string host;        // SLURMD_NODENAME
  std::string rendezvous;  // tcp://first-node:port (rank 0 binds it on every interface)
  std::string bindAddress; // an address of this node that the others can reach
};

// nullopt when not running under srun (no SLURM_PROCID).
std::optional<SlurmBootstrap> slurmBootstrapFromEnvironment();

// "node[01-03,07],gpu1" -> "node01": Slurm's compressed host lists, first host only.
std::string firstHostOfNodeList(const std::string& nodeList);

}  // namespace zmpi::mpi
