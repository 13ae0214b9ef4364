#include "mpi/io/open.h"

#include <mpi.h>

#include <optional>
#include <random>

#include "mpi/comm/constructors.h"
#include "mpi/core/error.h"
#include "mpi/io/amode.h"
#include "mpi/io/collective.h"
#include "mpi/io/hints.h"

namespace zmpi::mpi::io {

std::string pathOf(const std::string& filename) {
  for (const char* prefix : {"ufs:", "nfs:"}) {
    const std::string p(prefix);
    if (filename.compare(0, p.size(), p) == 0) return filename.substr(p.size());
  }
  return filename;
}

std::unique_ptr<File> openFile(Communicator& parent, const std::string& path, int amode, const Info* info,
                               Errhandler* errhandler) {
  validateAmode(amode);
  if (path.empty()) fail(MPI_ERR_BAD_FILE, "the file name is empty");
  const mode_t permissions = permissionsFrom(info);
  std::unique_ptr<Communicator> comm = dupCommunicator(parent);
  std::optional<PosixFile> posix;
  const auto openHere = [&](bool create) { posix.emplace(path, openFlags(amode, create), permissions); };

  // Rank 0 creates the file before anyone else opens it: only it may see EXCL fail.
  if (amode & MPI_MODE_CREATE) {
    const Outcome created = comm->rank() == 0 ? attempt([&] { openHere(true); }) : Outcome{MPI_SUCCESS, {}};
    agree(*comm, created, "creating '" + path + "'");
  }
  // Rank 0 also finds where the pointers start (the end of the file for MPI_MODE_APPEND)
  // before anyone can have written, and picks a random token naming the shared file
  // pointer's side file.
  std::int64_t token = 0, start = 0;
  const Outcome opened = attempt([&] {
    if (!posix) openHere(false);
    if (comm->rank() == 0) {
      std::random_device random;
      token = static_cast<std::int64_t>((std::uint64_t{random()} << 32) ^ random());
      if (amode & MPI_MODE_APPEND) start = posix->size();
    }
  });
  agree(*comm, opened, "opening '" + path + "'");
  token = allgather(*comm, token)[0];
  start = allgather(*comm, start)[0];
  auto file = std::make_unique<File>(std::move(comm), std::move(*posix), amode, errhandler,
                                     static_cast<std::uint64_t>(token), static_cast<std::uint64_t>(start));
  file->hints = hintsFor(info, file->comm().size(), {});
  return file;
}

void closeFile(File& file) {
  const Outcome closed = attempt([&] { file.posix().close(); });
  // Everyone has closed before the file may go away.
  barrier(file.comm());
  Outcome removed{MPI_SUCCESS, {}};
  if (file.comm().rank() == 0) {
    file.shared().remove();
    if (file.hasMode(MPI_MODE_DELETE_ON_CLOSE)) removed = attempt([&] { PosixFile::remove(file.path()); });
  }
  if (closed.code != MPI_SUCCESS) fail(closed.code, closed.message);
  if (removed.code != MPI_SUCCESS) fail(removed.code, removed.message);
}

}  // namespace zmpi::mpi::io
