#include "mpi/io/amode.h"

#include <fcntl.h>
#include <mpi.h>

#include <cstdio>
#include <utility>

#include "mpi/core/error.h"

namespace zmpi::mpi::io {
namespace {

constexpr std::pair<int, const char*> kModes[] = {
    {MPI_MODE_RDONLY, "MPI_MODE_RDONLY"},
    {MPI_MODE_WRONLY, "MPI_MODE_WRONLY"},
    {MPI_MODE_RDWR, "MPI_MODE_RDWR"},
    {MPI_MODE_CREATE, "MPI_MODE_CREATE"},
    {MPI_MODE_EXCL, "MPI_MODE_EXCL"},
    {MPI_MODE_DELETE_ON_CLOSE, "MPI_MODE_DELETE_ON_CLOSE"},
    {MPI_MODE_UNIQUE_OPEN, "MPI_MODE_UNIQUE_OPEN"},
    {MPI_MODE_SEQUENTIAL, "MPI_MODE_SEQUENTIAL"},
    {MPI_MODE_APPEND, "MPI_MODE_APPEND"},
};

int knownBits() {
  int bits = 0;
  for (const auto& [bit, name] : kModes) bits |= bit;
  return bits;
}

}  // namespace

std::string describeAmode(int amode) {
  std::string text;
  for (const auto& [bit, name] : kModes) {
    if (amode & bit) text += (text.empty() ? "" : "|") + std::string(name);
  }
  if (const int unknown = amode & ~knownBits()) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%x", static_cast<unsigned>(unknown));
    text += (text.empty() ? "" : "|") + std::string(hex);
  }
  return text.empty() ? "0" : text;
}

void validateAmode(int amode) {
  const std::string what = "access mode " + describeAmode(amode) + ": ";
  if (amode & ~knownBits()) fail(MPI_ERR_AMODE, what + "has bits that are no MPI_MODE_* flag");
  const int access = amode & (MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR);
  if (access != MPI_MODE_RDONLY && access != MPI_MODE_WRONLY && access != MPI_MODE_RDWR) {
    fail(MPI_ERR_AMODE, what + "needs exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR");
  }
  if (access == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL))) {
    fail(MPI_ERR_AMODE, what + "MPI_MODE_CREATE and MPI_MODE_EXCL cannot be used with MPI_MODE_RDONLY");
  }
  if (access == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL)) {
    fail(MPI_ERR_AMODE, what + "MPI_MODE_SEQUENTIAL cannot be used with MPI_MODE_RDWR");
  }
}

int openFlags(int amode, bool create) {
  int flags = O_CLOEXEC;
  if (amode & MPI_MODE_RDONLY) flags |= O_RDONLY;
  if (amode & MPI_MODE_WRONLY) flags |= O_WRONLY;
  if (amode & MPI_MODE_RDWR) flags |= O_RDWR;
  // EXCL without CREATE asks for nothing (it only qualifies creating), so it is ignored.
  if (create && (amode & MPI_MODE_CREATE)) {
    flags |= O_CREAT;
    if (amode & MPI_MODE_EXCL) flags |= O_EXCL;
  }
  return flags;
}

}  // namespace zmpi::mpi::io
