#pragma once
// Data representations a file view may name (MPI-3.1 13.5): "native" and "internal" (the
// same here), and those the program registered with MPI_Register_datarep. A registered one
// whose conversion functions are both MPI_CONVERSION_FN_NULL reads and writes native data,
// as the standard says; zmpi does not call conversion functions yet, so a view naming a
// representation that has them fails with MPI_ERR_UNSUPPORTED_DATAREP naming it.
#include <mpi.h>

#include <string>

namespace zmpi::mpi::io {

struct Datarep {
  MPI_Datarep_conversion_function* read = nullptr;
  MPI_Datarep_conversion_function* write = nullptr;
  MPI_Datarep_extent_function* extent = nullptr;
  void* extraState = nullptr;
};

// MPI_Register_datarep: MPI_ERR_DUP_DATAREP for a name already known (the predefined ones
// included), MPI_ERR_ARG for an empty or too long name.
void registerDatarep(const std::string& name, const Datarep& datarep);

// Throws MPI_ERR_UNSUPPORTED_DATAREP unless a view may use `name` (see above).
void requireUsableDatarep(const std::string& name);

}  // namespace zmpi::mpi::io
