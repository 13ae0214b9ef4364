#pragma once
// A MAXLOC/MINLOC pair (MPI_DOUBLE_INT, MPI_2INT, ...) as C lays it out in user memory:
// {value; index}, padded to the stricter of the two alignments. The one definition that the
// predefined pair types, their external32 form and the MAXLOC/MINLOC kernels share.

namespace zmpi::mpi {

template <typename Value, typename Index = int>
struct LocPair {
  Value value;
  Index index;
};

}  // namespace zmpi::mpi
