#pragma once
// MPI error classes and codes: the predefined strings (Open MPI's wording) plus the
// classes, codes and strings a program adds with MPI_Add_error_class/code/string.
#include <string>

namespace zmpi::mpi::capi {

// "MPI_ERR_RANK: invalid rank"; empty for unknown codes.
std::string errorString(int code);
// The class of a code; -1 for unknown codes.
int errorClass(int code);
int addErrorClass();
int addErrorCode(int errorClass);  // -1 if the class is unknown
bool setErrorString(int code, const std::string& text);
int lastUsedErrorCode();

}  // namespace zmpi::mpi::capi
