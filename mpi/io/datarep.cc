#include "mpi/io/datarep.h"

#include <map>
#include <mutex>

#include "mpi/core/error.h"

namespace zmpi::mpi::io {
namespace {

// Registrations last for the process (the standard has no way to undo one), whatever
// world is running: a function-local static, reached under its own mutex.
struct Registry {
  std::mutex mutex;
  std::map<std::string, Datarep> entries;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

bool predefined(const std::string& name) { return name == "native" || name == "internal" || name == "external32"; }

}  // namespace

void registerDatarep(const std::string& name, const Datarep& datarep) {
  if (name.empty()) fail(MPI_ERR_ARG, "datarep is an empty name");
  if (name.size() >= MPI_MAX_DATAREP_STRING) {
    fail(MPI_ERR_ARG, "datarep \"" + name + "\" is longer than MPI_MAX_DATAREP_STRING - 1 characters");
  }
  if (predefined(name)) fail(MPI_ERR_DUP_DATAREP, "data representation \"" + name + "\" is predefined");
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (!r.entries.emplace(name, datarep).second) {
    fail(MPI_ERR_DUP_DATAREP, "data representation \"" + name + "\" is already registered");
  }
}

void requireUsableDatarep(const std::string& name) {
  if (name == "native" || name == "internal") return;
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const auto found = r.entries.find(name);
  if (found == r.entries.end()) {
    fail(MPI_ERR_UNSUPPORTED_DATAREP, "data representation \"" + name +
                                          "\" is not supported (only \"native\", \"internal\" and those registered "
                                          "with MPI_Register_datarep)");
  }
  if (found->second.read != nullptr || found->second.write != nullptr) {
    fail(MPI_ERR_UNSUPPORTED_DATAREP, "data representation \"" + name +
                                          "\" has conversion functions, which zmpi does not call yet (only "
                                          "MPI_CONVERSION_FN_NULL, i.e. native data)");
  }
}

}  // namespace zmpi::mpi::io
