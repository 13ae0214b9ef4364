#pragma once
// Argument checks shared by the type constructors: each failure names the argument, the
// index where there is one, and the value.
#include <mpi.h>

#include <string>

#include "mpi/core/error.h"

namespace zmpi::mpi::types {

inline std::string nth(const char* name, int index) { return std::string(name) + "[" + std::to_string(index) + "]"; }

inline void requireCount(int count, const char* name = "count") {
  if (count < 0) fail(MPI_ERR_COUNT, std::string(name) + " is negative (" + std::to_string(count) + ")");
}

inline void requireNonNegative(int value, const std::string& name) {
  if (value < 0) fail(MPI_ERR_ARG, name + " is negative (" + std::to_string(value) + ")");
}

// Arrays may be null only when they would not be read.
inline void requireArray(const void* array, int count, const char* name) {
  if (array == nullptr && count > 0) {
    fail(MPI_ERR_ARG, std::string(name) + " is a null pointer with count " + std::to_string(count));
  }
}

}  // namespace zmpi::mpi::types
