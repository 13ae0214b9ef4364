#include "mpi/init/shared_library.h"

#include <dlfcn.h>
#include <mpi.h>

#include "mpi/core/error.h"

namespace zmpi::mpi {

SharedLibrary::SharedLibrary(const std::string& soname, const std::string& purpose)
    : soname_(soname), handle_(dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) {
  if (handle_ == nullptr) {
    const char* reason = dlerror();
    fail(MPI_ERR_OTHER, purpose + " needs " + soname + ", which cannot be loaded: " + (reason ? reason : "unknown"));
  }
}

SharedLibrary::~SharedLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

void* SharedLibrary::address(const char* name) const {
  dlerror();
  void* symbol = dlsym(handle_, name);
  if (symbol == nullptr) fail(MPI_ERR_OTHER, soname_ + " has no function " + name);
  return symbol;
}

}  // namespace zmpi::mpi
