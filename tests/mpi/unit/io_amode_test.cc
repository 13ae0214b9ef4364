// Access modes of MPI_File_open: every legal combination passes, each illegal one is
// MPI_ERR_AMODE with a message saying why, and the open(2) flags they become.
#include <fcntl.h>
#include <mpi.h>

#include <catch2/catch.hpp>
#include <string>

#include "mpi/core/error.h"
#include "mpi/io/amode.h"

using namespace zmpi::mpi;
using zmpi::mpi::io::describeAmode;
using zmpi::mpi::io::openFlags;
using zmpi::mpi::io::validateAmode;

namespace {

std::string amodeError(int amode) {
  try {
    validateAmode(amode);
  } catch (const MpiError& error) {
    CHECK(error.code() == MPI_ERR_AMODE);
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("legal access modes pass") {
  for (int access : {MPI_MODE_RDONLY, MPI_MODE_WRONLY, MPI_MODE_RDWR}) {
    CHECK_NOTHROW(validateAmode(access));
    CHECK_NOTHROW(validateAmode(access | MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_APPEND));
  }
  CHECK_NOTHROW(validateAmode(MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL));
  CHECK_NOTHROW(validateAmode(MPI_MODE_RDWR | MPI_MODE_CREATE));
  CHECK_NOTHROW(validateAmode(MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL));
  CHECK_NOTHROW(validateAmode(MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL | MPI_MODE_CREATE));
}

TEST_CASE("not exactly one of RDONLY, WRONLY and RDWR is MPI_ERR_AMODE") {
  CHECK(amodeError(0).find("exactly one") != std::string::npos);
  CHECK(amodeError(MPI_MODE_CREATE).find("exactly one") != std::string::npos);
  CHECK(amodeError(MPI_MODE_RDONLY | MPI_MODE_WRONLY).find("exactly one") != std::string::npos);
  CHECK(amodeError(MPI_MODE_RDWR | MPI_MODE_WRONLY).find("exactly one") != std::string::npos);
  CHECK(amodeError(MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY) != "");
}

TEST_CASE("CREATE or EXCL with RDONLY, and SEQUENTIAL with RDWR, are MPI_ERR_AMODE") {
  CHECK(amodeError(MPI_MODE_RDONLY | MPI_MODE_CREATE).find("MPI_MODE_RDONLY") != std::string::npos);
  CHECK(amodeError(MPI_MODE_RDONLY | MPI_MODE_EXCL) != "");
  CHECK(amodeError(MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL).find("MPI_MODE_SEQUENTIAL") != std::string::npos);
}

TEST_CASE("bits that are no MPI_MODE_* flag are MPI_ERR_AMODE") {
  const std::string text = amodeError(MPI_MODE_RDWR | 0x40000000);
  CHECK(text.find("0x40000000") != std::string::npos);
}

TEST_CASE("open flags: access, creation only for the creating process, close-on-exec") {
  CHECK(openFlags(MPI_MODE_RDONLY, true) == (O_RDONLY | O_CLOEXEC));
  CHECK(openFlags(MPI_MODE_WRONLY, false) == (O_WRONLY | O_CLOEXEC));
  CHECK(openFlags(MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL, true) == (O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC));
  CHECK(openFlags(MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL, false) == (O_RDWR | O_CLOEXEC));
  // EXCL alone qualifies nothing.
  CHECK(openFlags(MPI_MODE_WRONLY | MPI_MODE_EXCL, true) == (O_WRONLY | O_CLOEXEC));
}

TEST_CASE("access modes are described by their flag names") {
  CHECK(describeAmode(MPI_MODE_RDWR | MPI_MODE_CREATE) == "MPI_MODE_RDWR|MPI_MODE_CREATE");
  CHECK(describeAmode(0) == "0");
}
