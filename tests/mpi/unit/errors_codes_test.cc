// The error-string table (capi/error_strings.h) against mpi.h: the string of every
// predefined class starts with that class's own name, so table index and Open MPI's code
// cannot drift apart; and the program's own classes and codes.
#include <mpi.h>

#include <catch2/catch.hpp>
#include <string>
#include <utility>

#include "mpi/capi/error_strings.h"

using namespace zmpi::mpi::capi;

#define ZMPI_CLASS(name) std::pair<int, const char*>(name, #name)

TEST_CASE("each predefined class's string names that class", "[errors]") {
  const std::pair<int, const char*> classes[] = {
      ZMPI_CLASS(MPI_SUCCESS),
      ZMPI_CLASS(MPI_ERR_BUFFER),
      ZMPI_CLASS(MPI_ERR_COUNT),
      ZMPI_CLASS(MPI_ERR_TYPE),
      ZMPI_CLASS(MPI_ERR_TAG),
      ZMPI_CLASS(MPI_ERR_COMM),
      ZMPI_CLASS(MPI_ERR_RANK),
      ZMPI_CLASS(MPI_ERR_REQUEST),
      ZMPI_CLASS(MPI_ERR_ROOT),
      ZMPI_CLASS(MPI_ERR_GROUP),
      ZMPI_CLASS(MPI_ERR_OP),
      ZMPI_CLASS(MPI_ERR_TOPOLOGY),
      ZMPI_CLASS(MPI_ERR_DIMS),
      ZMPI_CLASS(MPI_ERR_ARG),
      ZMPI_CLASS(MPI_ERR_UNKNOWN),
      ZMPI_CLASS(MPI_ERR_TRUNCATE),
      ZMPI_CLASS(MPI_ERR_OTHER),
      ZMPI_CLASS(MPI_ERR_INTERN),
      ZMPI_CLASS(MPI_ERR_IN_STATUS),
      ZMPI_CLASS(MPI_ERR_PENDING),
      ZMPI_CLASS(MPI_ERR_ACCESS),
      ZMPI_CLASS(MPI_ERR_AMODE),
      ZMPI_CLASS(MPI_ERR_ASSERT),
      ZMPI_CLASS(MPI_ERR_BAD_FILE),
      ZMPI_CLASS(MPI_ERR_BASE),
      ZMPI_CLASS(MPI_ERR_CONVERSION),
      ZMPI_CLASS(MPI_ERR_DISP),
      ZMPI_CLASS(MPI_ERR_DUP_DATAREP),
      ZMPI_CLASS(MPI_ERR_FILE_EXISTS),
      ZMPI_CLASS(MPI_ERR_FILE_IN_USE),
      ZMPI_CLASS(MPI_ERR_FILE),
      ZMPI_CLASS(MPI_ERR_INFO_KEY),
      ZMPI_CLASS(MPI_ERR_INFO_NOKEY),
      ZMPI_CLASS(MPI_ERR_INFO_VALUE),
      ZMPI_CLASS(MPI_ERR_INFO),
      ZMPI_CLASS(MPI_ERR_IO),
      ZMPI_CLASS(MPI_ERR_KEYVAL),
      ZMPI_CLASS(MPI_ERR_LOCKTYPE),
      ZMPI_CLASS(MPI_ERR_NAME),
      ZMPI_CLASS(MPI_ERR_NO_MEM),
      ZMPI_CLASS(MPI_ERR_NOT_SAME),
      ZMPI_CLASS(MPI_ERR_NO_SPACE),
      ZMPI_CLASS(MPI_ERR_NO_SUCH_FILE),
      ZMPI_CLASS(MPI_ERR_PORT),
      ZMPI_CLASS(MPI_ERR_QUOTA),
      ZMPI_CLASS(MPI_ERR_READ_ONLY),
      ZMPI_CLASS(MPI_ERR_RMA_CONFLICT),
      ZMPI_CLASS(MPI_ERR_RMA_SYNC),
      ZMPI_CLASS(MPI_ERR_SERVICE),
      ZMPI_CLASS(MPI_ERR_SIZE),
      ZMPI_CLASS(MPI_ERR_SPAWN),
      ZMPI_CLASS(MPI_ERR_UNSUPPORTED_DATAREP),
      ZMPI_CLASS(MPI_ERR_UNSUPPORTED_OPERATION),
      ZMPI_CLASS(MPI_ERR_WIN),
      ZMPI_CLASS(MPI_T_ERR_MEMORY),
      ZMPI_CLASS(MPI_T_ERR_NOT_INITIALIZED),
      ZMPI_CLASS(MPI_T_ERR_CANNOT_INIT),
      ZMPI_CLASS(MPI_T_ERR_INVALID_INDEX),
      ZMPI_CLASS(MPI_T_ERR_INVALID_ITEM),
      ZMPI_CLASS(MPI_T_ERR_INVALID_HANDLE),
      ZMPI_CLASS(MPI_T_ERR_OUT_OF_HANDLES),
      ZMPI_CLASS(MPI_T_ERR_OUT_OF_SESSIONS),
      ZMPI_CLASS(MPI_T_ERR_INVALID_SESSION),
      ZMPI_CLASS(MPI_T_ERR_CVAR_SET_NOT_NOW),
      ZMPI_CLASS(MPI_T_ERR_CVAR_SET_NEVER),
      ZMPI_CLASS(MPI_T_ERR_PVAR_NO_STARTSTOP),
      ZMPI_CLASS(MPI_T_ERR_PVAR_NO_WRITE),
      ZMPI_CLASS(MPI_T_ERR_PVAR_NO_ATOMIC),
      ZMPI_CLASS(MPI_ERR_RMA_RANGE),
      ZMPI_CLASS(MPI_ERR_RMA_ATTACH),
      ZMPI_CLASS(MPI_ERR_RMA_FLAVOR),
      ZMPI_CLASS(MPI_ERR_RMA_SHARED),
      ZMPI_CLASS(MPI_T_ERR_INVALID),
      ZMPI_CLASS(MPI_T_ERR_INVALID_NAME),
  };
  for (const auto& [code, name] : classes) {
    INFO(name << " = " << code);
    CHECK(errorString(code).rfind(std::string(name) + ": ", 0) == 0);
    CHECK(errorClass(code) == code);
  }
}

TEST_CASE("codes that were never handed out have no class and no string", "[errors]") {
  CHECK(errorClass(-1) == -1);
  CHECK(errorClass(MPI_T_ERR_INVALID_NAME + 1) == -1);
  CHECK(errorString(-1).empty());
  CHECK(errorClass(1 << 30) == -1);
}

TEST_CASE("added classes and codes count up from MPI_ERR_LASTCODE and keep their strings", "[errors]") {
  const int before = lastUsedErrorCode();
  CHECK(before >= MPI_ERR_LASTCODE);
  const int cls = addErrorClass();
  CHECK(cls == before + 1);
  CHECK(errorClass(cls) == cls);
  const int code = addErrorCode(cls);
  CHECK(code == cls + 1);
  CHECK(errorClass(code) == cls);
  CHECK(lastUsedErrorCode() == code);
  CHECK(addErrorCode(MPI_ERR_LASTCODE - 1) == -1);  // no such class
  CHECK(errorString(code).empty());
  CHECK(setErrorString(code, "disk on fire"));
  CHECK(errorString(code) == "disk on fire");
  CHECK_FALSE(setErrorString(MPI_ERR_RANK, "no"));
  CHECK_FALSE(setErrorString(code + 100, "no"));
  CHECK(errorString(MPI_ERR_RANK) == "MPI_ERR_RANK: invalid rank");
}
