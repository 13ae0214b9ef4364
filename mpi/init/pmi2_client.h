#pragma once
// The PMI-2 client (Slurm's libpmi2.so.0, loaded at run time), for managers that offer
// only that: srun --mpi=pmi2, and MPICH's Hydra. PMI_FD in the environment names the
// connection to the manager's server.
#include <chrono>
#include <memory>

#include "mpi/init/process_manager.h"

namespace zmpi::mpi {

std::unique_ptr<ProcessManager> connectPmi2(std::chrono::milliseconds timeout);

}  // namespace zmpi::mpi
