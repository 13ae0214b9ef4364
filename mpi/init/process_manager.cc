#include "mpi/init/process_manager.h"

#include <mpi.h>

#include <cstdlib>

#include "mpi/core/error.h"
#include "mpi/init/pmi2_client.h"
#include "mpi/init/pmix_client.h"

namespace zmpi::mpi {

std::unique_ptr<ProcessManager> connectProcessManager(std::chrono::milliseconds timeout) {
  if (std::getenv("PMIX_NAMESPACE") != nullptr && std::getenv("PMIX_RANK") != nullptr) {
#if ZMPI_HAVE_PMIX
    return connectPmix(timeout);
#else
    fail(MPI_ERR_OTHER, "MPI_Init: started by a PMIx manager, but zmpi was built without PMIx (libpmix-dev)");
#endif
  }
  if (std::getenv("PMI_FD") != nullptr) {
#if ZMPI_HAVE_PMI2
    return connectPmi2(timeout);
#else
    fail(MPI_ERR_OTHER, "MPI_Init: started by a PMI-2 manager, but zmpi was built without PMI-2 (libpmi2-0-dev)");
#endif
  }
  (void)timeout;
  return nullptr;
}

}  // namespace zmpi::mpi
