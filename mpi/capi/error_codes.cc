// Error classes, codes and their strings: MPI_Error_string, MPI_Error_class and the
// program's own additions (MPI_Add_error_class/code/string). Tables: error_strings.h.
#include <cstring>
#include <string>

#include "mpi/capi/entry.h"
#include "mpi/capi/error_strings.h"
#include "mpi/capi/runtime.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

void knownCodeArg(int code, const char* name) {
  if (errorClass(code) < 0) fail(MPI_ERR_ARG, std::string(name) + " " + std::to_string(code) + " is not an error code");
}

}  // namespace

extern "C" {

// `string` holds MPI_MAX_ERROR_STRING characters. Works before MPI_Init, as in Open MPI.
int PMPI_Error_string(int errorcode, char* string, int* resultlen) {
  return guarded("MPI_Error_string", [&] {
    knownCodeArg(errorcode, "errorcode");
    if (string == nullptr || resultlen == nullptr) fail(MPI_ERR_ARG, "string or resultlen is a null pointer");
    const std::string text = errorString(errorcode).substr(0, MPI_MAX_ERROR_STRING - 1);
    std::memcpy(string, text.c_str(), text.size() + 1);
    *resultlen = static_cast<int>(text.size());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Error_string)

int PMPI_Error_class(int errorcode, int* errorclass) {
  return guarded("MPI_Error_class", [&] {
    knownCodeArg(errorcode, "errorcode");
    if (errorclass == nullptr) fail(MPI_ERR_ARG, "errorclass is a null pointer");
    *errorclass = errorClass(errorcode);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Error_class)

int PMPI_Add_error_class(int* errorclass) {
  return guarded("MPI_Add_error_class", [&] {
    requireWorld();
    if (errorclass == nullptr) fail(MPI_ERR_ARG, "errorclass is a null pointer");
    *errorclass = addErrorClass();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Add_error_class)

int PMPI_Add_error_code(int errorclass, int* errorcode) {
  return guarded("MPI_Add_error_code", [&] {
    requireWorld();
    if (errorcode == nullptr) fail(MPI_ERR_ARG, "errorcode is a null pointer");
    // Predefined classes may get codes too, as in Open MPI.
    const int code = addErrorCode(errorclass);
    if (code < 0) fail(MPI_ERR_ARG, "errorclass " + std::to_string(errorclass) + " is not an error class");
    *errorcode = code;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Add_error_code)

int PMPI_Add_error_string(int errorcode, const char* string) {
  return guarded("MPI_Add_error_string", [&] {
    requireWorld();
    if (string == nullptr) fail(MPI_ERR_ARG, "string is a null pointer");
    if (std::strlen(string) >= MPI_MAX_ERROR_STRING) {
      fail(MPI_ERR_ARG, "string is longer than MPI_MAX_ERROR_STRING - 1 (" + std::to_string(MPI_MAX_ERROR_STRING - 1) +
                            " characters)");
    }
    if (errorcode <= MPI_ERR_LASTCODE) {
      fail(MPI_ERR_ARG, "the string of predefined error code " + std::to_string(errorcode) + " cannot be changed");
    }
    if (!setErrorString(errorcode, string)) {
      fail(MPI_ERR_ARG, "errorcode " + std::to_string(errorcode) + " was not added by MPI_Add_error_class/code");
    }
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Add_error_string)

}  // extern "C"
