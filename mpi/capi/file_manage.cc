// File manipulation (MPI-3.1 section 13.2): open, close, delete, size, preallocation,
// sync, access mode, group, hints and atomicity. The work is in mpi/io/; this file checks
// arguments, hands out handles and runs the collective steps on the file's communicator.
#include <memory>

#include "mpi/capi/file_entry.h"
#include "mpi/capi/validate.h"
#include "mpi/core/info.h"
#include "mpi/io/amode.h"
#include "mpi/io/collective.h"
#include "mpi/io/hints.h"
#include "mpi/io/open.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

void sizeArg(MPI_Offset size) {
  if (size < 0) fail(MPI_ERR_ARG, "size is negative (" + std::to_string(size) + ")");
}

// Runs `body` on rank 0 only; every rank then returns rank 0's outcome.
template <typename Body>
void onRankZero(io::File& file, const std::string& what, Body&& body) {
  const io::Outcome outcome = file.comm().rank() == 0 ? io::attempt(body) : io::Outcome{MPI_SUCCESS, {}};
  io::agree(file.comm(), outcome, what);
}

}  // namespace

extern "C" {

int PMPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  return guardedFile("MPI_File_open", MPI_FILE_NULL, [&] {
    Communicator& parent = intraCommArg(comm);
    pointerArg(filename, "filename");
    pointerArg(fh, "fh");
    *fh = MPI_FILE_NULL;
    std::unique_ptr<io::File> file =
        io::openFile(parent, io::pathOf(filename), amode, infoOrNull(info), defaultFileErrhandler());
    *fh = file.release()->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_open)

int PMPI_File_close(MPI_File* fh) {
  io::File* file = nullptr;
  const int status = guardedFile("MPI_File_close", fh ? *fh : MPI_FILE_NULL, [&] {
    pointerArg(fh, "fh");
    file = &fileArg(*fh);
    io::closeFile(*file);
    return MPI_SUCCESS;
  });
  // The handle is gone whatever the outcome (a failed close leaves no descriptor behind);
  // it is freed only now so that an error handler could still be given it.
  if (file != nullptr) {
    delete file;
    *fh = MPI_FILE_NULL;
  }
  return status;
}
ZMPI_ALIAS(MPI_File_close)

int PMPI_File_delete(const char* filename, MPI_Info info) {
  return guardedFile("MPI_File_delete", MPI_FILE_NULL, [&] {
    pointerArg(filename, "filename");
    infoOrNull(info);
    io::PosixFile::remove(io::pathOf(filename));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_delete)

int PMPI_File_set_size(MPI_File fh, MPI_Offset size) {
  return guardedFile("MPI_File_set_size", fh, [&] {
    io::File& file = fileArg(fh);
    sizeArg(size);
    notSequential(file, "MPI_File_set_size");
    if (file.hasMode(MPI_MODE_RDONLY)) fail(MPI_ERR_READ_ONLY, "the file was opened MPI_MODE_RDONLY");
    onRankZero(file, "resizing '" + file.path() + "'", [&] { file.posix().truncate(size); });
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_set_size)

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size) {
  return guardedFile("MPI_File_preallocate", fh, [&] {
    io::File& file = fileArg(fh);
    sizeArg(size);
    notSequential(file, "MPI_File_preallocate");
    if (file.hasMode(MPI_MODE_RDONLY)) fail(MPI_ERR_READ_ONLY, "the file was opened MPI_MODE_RDONLY");
    onRankZero(file, "preallocating '" + file.path() + "'", [&] { file.posix().allocate(size); });
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_preallocate)

int PMPI_File_get_size(MPI_File fh, MPI_Offset* size) {
  return guardedFile("MPI_File_get_size", fh, [&] {
    io::File& file = fileArg(fh);
    pointerArg(size, "size");
    *size = file.posix().size();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_size)

// Collective: each rank flushes its own writes; the barrier after it is what lets a
// sync-barrier-sync sequence make one rank's writes visible to another (MPI-3.1 13.6.1).
int PMPI_File_sync(MPI_File fh) {
  return guardedFile("MPI_File_sync", fh, [&] {
    io::File& file = fileArg(fh);
    const io::Outcome synced = io::attempt([&] { file.posix().sync(); });
    io::agree(file.comm(), synced, "syncing '" + file.path() + "'");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_sync)

int PMPI_File_get_amode(MPI_File fh, int* amode) {
  return guardedFile("MPI_File_get_amode", fh, [&] {
    io::File& file = fileArg(fh);
    pointerArg(amode, "amode");
    *amode = file.amode();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_amode)

int PMPI_File_get_group(MPI_File fh, MPI_Group* group) {
  return guardedFile("MPI_File_get_group", fh, [&] {
    io::File& file = fileArg(fh);
    pointerArg(group, "group");
    file.comm().group().retain();  // released by MPI_Group_free
    *group = file.comm().group().handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_group)

int PMPI_File_set_info(MPI_File fh, MPI_Info info) {
  return guardedFile("MPI_File_set_info", fh, [&] {
    io::File& file = fileArg(fh);
    file.hints = io::hintsFor(infoOrNull(info), file.comm().size(), file.hints);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_set_info)

// A new Info object, the program's to free.
int PMPI_File_get_info(MPI_File fh, MPI_Info* info_used) {
  return guardedFile("MPI_File_get_info", fh, [&] {
    io::File& file = fileArg(fh);
    pointerArg(info_used, "info_used");
    auto info = std::make_unique<Info>();
    for (const auto& [key, value] : file.hints) info->set(key, value);
    *info_used = info.release()->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_info)

// Atomic mode locks the file bytes an access touches for its duration (POSIX byte-range
// locks), so concurrent conflicting accesses from different ranks do not interleave.
int PMPI_File_set_atomicity(MPI_File fh, int flag) {
  return guardedFile("MPI_File_set_atomicity", fh, [&] {
    io::File& file = fileArg(fh);
    file.setAtomic(flag != 0);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_set_atomicity)

int PMPI_File_get_atomicity(MPI_File fh, int* flag) {
  return guardedFile("MPI_File_get_atomicity", fh, [&] {
    io::File& file = fileArg(fh);
    pointerArg(flag, "flag");
    *flag = file.atomic() ? 1 : 0;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_atomicity)

}  // extern "C"
