#pragma once
// Opening and closing MPI files (MPI-3.1 sections 13.2.1-13.2.2), collectively over a
// communicator.
#include <memory>
#include <string>

#include "mpi/comm/communicator.h"
#include "mpi/core/info.h"
#include "mpi/io/file.h"

namespace zmpi::mpi::io {

// Collective over `parent`. `amode` is checked first (MPI_ERR_AMODE, before any message).
// With MPI_MODE_CREATE, rank 0 creates the file (and alone applies MPI_MODE_EXCL) before
// the others open it, so EXCL fails on an existing file and nowhere else. If any rank
// cannot open the file, every rank fails (the error classes of posix_file.h) and none
// keeps it open. `info` (may be null) supplies hints: "file_perm" (octal) sets a created
// file's permissions; the file gets `errhandler`.
std::unique_ptr<File> openFile(Communicator& parent, const std::string& path, int amode, const Info* info,
                               Errhandler* errhandler);

// Collective over the file's communicator: every rank closes its descriptor, and after all
// have, rank 0 deletes the file if it was opened with MPI_MODE_DELETE_ON_CLOSE. The caller
// then destroys `file`.
void closeFile(File& file);

// The file name a program passes, without a ROMIO-style file system prefix ("ufs:",
// "nfs:"), which names the driver, not the path.
std::string pathOf(const std::string& filename);

}  // namespace zmpi::mpi::io
