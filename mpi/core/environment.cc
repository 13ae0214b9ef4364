#include "mpi/core/environment.h"

#include <mpi.h>

#include <cstdlib>

#include "mpi/core/error.h"

namespace zmpi::mpi {

std::string environmentString(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : fallback;
}

long long parseNumber(const char* name, const std::string& text) {
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') fail(MPI_ERR_OTHER, std::string(name) + "=" + text + " is not a number");
  return value;
}

long long environmentNumber(const char* name, long long fallback) {
  const std::string value = environmentString(name);
  return value.empty() ? fallback : parseNumber(name, value);
}

}  // namespace zmpi::mpi
