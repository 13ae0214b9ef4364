#pragma once
// MPI-IO hints (MPI-3.1 section 13.2.8): which of a program's hints a file keeps, and the
// hints zmpi reports for what it actually does.
#include <sys/types.h>

#include "mpi/core/info.h"
#include "mpi/io/file.h"

namespace zmpi::mpi::io {

// The hints of `info` (may be null) that zmpi keeps, with zmpi's own settings added:
// "cb_nodes" (every rank does its own I/O in collective calls: the communicator's size),
// "romio_cb_read"/"romio_cb_write" "disable" (no collective buffering) and
// "romio_no_indep_rw" "false". Reserved hints a program sets are kept as given, except
// that zmpi's own settings override them; unknown keys are dropped (as the standard lets
// an implementation do).
Hints hintsFor(const Info* info, int commSize, const Hints& previous);

// Permissions for a created file from the "file_perm" hint (octal, e.g. "0640"); 0666 if
// absent (the umask still applies). Throws MPI_ERR_INFO_VALUE for a value that is no octal
// permission.
mode_t permissionsFrom(const Info* info);

}  // namespace zmpi::mpi::io
