#include "mpi/core/environment.h"

#include <mpi.h>

#include <cstdlib>

#include "mpi/core/error.h"

namespace zmpi::mpi {
namespace {

template <typename Read>
auto checked(Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const transport::SettingError& error) {
    fail(MPI_ERR_OTHER, error.what());
  }
}

}  // namespace

long long setting(const transport::IntSetting& s) {
  return checked([&] { return s.read(); });
}
bool setting(const transport::BoolSetting& s) {
  return checked([&] { return s.read(); });
}
std::string setting(const transport::StringSetting& s) {
  return checked([&] { return s.read(); });
}
std::optional<long long> settingIfSet(const transport::IntSetting& s) {
  return checked([&] { return s.readIfSet(); });
}
std::optional<bool> settingIfSet(const transport::BoolSetting& s) {
  return checked([&] { return s.readIfSet(); });
}
std::optional<std::string> settingIfSet(const transport::StringSetting& s) {
  return checked([&] { return s.readIfSet(); });
}
bool experiment(const transport::Experiment& e) {
  return checked([&] { return e.enabled(); });
}

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

}  // namespace zmpi::mpi
