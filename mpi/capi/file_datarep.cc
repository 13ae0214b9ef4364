// MPI_Register_datarep (MPI-3.1 13.5.3): the registry is io/datarep.h; which
// registrations a file view can use is said there.
#include <cstring>

#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"
#include "mpi/io/datarep.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

extern "C" {

int PMPI_Register_datarep(const char* datarep, MPI_Datarep_conversion_function* read_conversion_fn,
                          MPI_Datarep_conversion_function* write_conversion_fn,
                          MPI_Datarep_extent_function* dtype_file_extent_fn, void* extra_state) {
  return guarded("MPI_Register_datarep", [&] {
    requireWorld();
    pointerArg(datarep, "datarep");
    // MPI_CONVERSION_FN_NULL is a null pointer in Open MPI's mpi.h.
    io::registerDatarep(std::string(datarep, strnlen(datarep, MPI_MAX_DATAREP_STRING)),
                        {read_conversion_fn, write_conversion_fn, dtype_file_extent_fn, extra_state});
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Register_datarep)

}  // extern "C"
