#include "mpi/op/predefined.h"

#include <initializer_list>

#include <mpi.h>

#include "mpi/abi/predefined_objects.h"

namespace zmpi::mpi {

// Placeholder until mpi/op/ lands: the handles are valid (kind Op) but carry no kernel.
void bindPredefinedOps() {
  for (MPI_Op op : {MPI_OP_NULL, MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR,
                    MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP}) {
    bindHandle(op, HandleKind::Op, nullptr);
  }
}

}  // namespace zmpi::mpi
