#pragma once
// The predefined datatypes (MPI_INT, MPI_DOUBLE_INT, ...), with Open MPI's sizes and
// layouts, bound to their handle symbols once per process (before MPI_Init, so a handle
// is valid wherever a program names it).
#include "mpi/datatype/datatype.h"

namespace zmpi::mpi {

void bindPredefinedDatatypes();
Datatype* byteType();  // MPI_BYTE, for the collectives' byte transfers

}  // namespace zmpi::mpi
