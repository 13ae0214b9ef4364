#pragma once
// The PMIx client (libpmix.so.2, loaded at run time): Slurm's srun --mpi=pmix, Open MPI's
// mpirun (its ORTE embeds a PMIx server), PRRTE and Flux hand a rank its identity and the
// job's key-value store through it.
#include <chrono>
#include <memory>

#include "mpi/init/process_manager.h"

namespace zmpi::mpi {

std::unique_ptr<ProcessManager> connectPmix(std::chrono::milliseconds timeout);

}  // namespace zmpi::mpi
