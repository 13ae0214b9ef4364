#pragma once
// MPI_File_open's access mode (MPI-3.1 section 13.2.1): which MPI_MODE_* combinations are
// legal, and the open(2) flags they become.
#include <string>

namespace zmpi::mpi::io {

// Throws MpiError(MPI_ERR_AMODE) naming what is wrong: not exactly one of RDONLY, WRONLY
// and RDWR; CREATE or EXCL with RDONLY; SEQUENTIAL with RDWR; a bit that is no MPI_MODE_*.
void validateAmode(int amode);

// open(2) flags for `amode`. `create` says whether this process is the one that creates
// the file (MPI_MODE_CREATE / MPI_MODE_EXCL apply to that process only: the others open
// the file it made, so EXCL does not make them fail). O_CLOEXEC always: a forked child
// must not keep the job's files open.
int openFlags(int amode, bool create);

// "MPI_MODE_RDWR|MPI_MODE_CREATE", for messages.
std::string describeAmode(int amode);

}  // namespace zmpi::mpi::io
