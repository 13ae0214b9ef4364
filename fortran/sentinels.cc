// The sentinels of Open MPI's mpif.h and modules (MPI_BOTTOM, MPI_IN_PLACE,
// MPI_STATUS(ES)_IGNORE, MPI_ARGV(S)_NULL, MPI_ERRCODES_IGNORE, MPI_UNWEIGHTED,
// MPI_WEIGHTS_EMPTY): common blocks whose address is the sentinel. A program built by
// mpif90 holds its own copy and exports it (Open MPI's libmpi.so.40 defines them, so the
// linker exported the program's), which is the one the bindings compare against; these are
// the definitions for programs that do not name them. Sizes are those of Open MPI's
// libmpi.so.40 symbols (the program's own copies of the statuses are whole statuses).
#include "fortran/convert.h"

extern "C" {
ZMPI_FORTRAN_EXPORT MPI_Fint mpi_fortran_bottom_ = 0;
ZMPI_FORTRAN_EXPORT MPI_Fint mpi_fortran_in_place_ = 0;
ZMPI_FORTRAN_EXPORT MPI_Fint mpi_fortran_status_ignore_[2] = {};
ZMPI_FORTRAN_EXPORT MPI_Fint mpi_fortran_statuses_ignore_[2] = {};
ZMPI_FORTRAN_EXPORT MPI_Fint mpi_fortran_errcodes_ignore_ = 0;
ZMPI_FORTRAN_EXPORT MPI_Fint mpi_fortran_unweighted_ = 0;
ZMPI_FORTRAN_EXPORT MPI_Fint mpi_fortran_weights_empty_ = 0;
ZMPI_FORTRAN_EXPORT char mpi_fortran_argv_null_ = 0;
ZMPI_FORTRAN_EXPORT char mpi_fortran_argvs_null_ = 0;
}
