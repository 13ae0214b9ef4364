// Small environment calls: MPI_Pcontrol, MPI_Alloc_mem, MPI_Free_mem.
#include <cstdlib>
#include <string>

#include "mpi/capi/entry.h"
#include "mpi/capi/runtime.h"
#include "mpi/core/info.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

extern "C" {

// Profiling control: zmpi itself has nothing to switch; profiling layers intercept MPI_Pcontrol.
int PMPI_Pcontrol(const int level, ...) { return MPI_SUCCESS; }
ZMPI_ALIAS(MPI_Pcontrol)

// Plain heap memory: there is no RDMA registration to benefit from. `baseptr` is really a
// void** (MPI's C binding types it void*).
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr) {
  return guarded("MPI_Alloc_mem", [&] {
    requireWorld();
    if (size < 0) fail(MPI_ERR_ARG, "size is negative (" + std::to_string(size) + ")");
    if (baseptr == nullptr) fail(MPI_ERR_ARG, "baseptr is a null pointer");
    infoOrNull(info);
    // malloc(0) may return null, which the program would take for failure.
    void* memory = std::malloc(size == 0 ? 1 : static_cast<size_t>(size));
    if (memory == nullptr) fail(MPI_ERR_NO_MEM, "cannot allocate " + std::to_string(size) + " bytes");
    *static_cast<void**>(baseptr) = memory;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Alloc_mem)

int PMPI_Free_mem(void* base) {
  return guarded("MPI_Free_mem", [&] {
    std::free(base);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Free_mem)

}  // extern "C"
