#pragma once
// A shared library opened at run time (dlopen), closed with its owner. The cluster
// managers' client libraries (libpmix, libpmi2) are loaded only by a process a manager
// started, so libmpi.so.40 neither needs them installed nor pays their load time (libpmix
// brings libevent, hwloc and munge) in every other job. Once loaded it stays (RTLD_NODELETE):
// a client library may leave a thread of its own behind, even after a failed init.
#include <string>

namespace zmpi::mpi {

class SharedLibrary {
 public:
  // Throws MpiError naming the library and dlerror()'s reason when it cannot be opened.
  SharedLibrary(const std::string& soname, const std::string& purpose);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  // The function `name`; throws MpiError naming it and the library when it is missing.
  template <typename Function>
  Function function(const char* name) const {
    return reinterpret_cast<Function>(address(name));
  }

 private:
  void* address(const char* name) const;

  std::string soname_;
  void* handle_;
};

}  // namespace zmpi::mpi
