// The landing point of every generated stub (mpi/abi/gen_stubs.py): never a silent success.
#include "mpi/capi/entry.h"

extern "C" __attribute__((visibility("default"))) int zmpi_unsupported(const char* name) {
  return zmpi::mpi::capi::raiseError(name, MPI_ERR_UNSUPPORTED_OPERATION,
                                     std::string(name) + " is not implemented by zmpi yet");
}
