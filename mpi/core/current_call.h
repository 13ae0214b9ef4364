#pragma once
// Which MPI call the current thread is in: the extern "C" entry points set it (see
// capi/entry.h), so diagnostics deeper down (the watchdog) can name the call and its
// communicator. One thread-local pair, saved and restored: nested calls (an error handler
// or a user op calling MPI) unwind correctly.
#include <mpi.h>

namespace zmpi::mpi {

struct CurrentCall {
  const char* name = nullptr;  // "MPI_Recv"; null outside any MPI call
  MPI_Comm comm = MPI_COMM_NULL;
};

// Initial-exec: every MPI call sets it, and the default model for a shared library goes
// through __tls_get_addr (a call and a lookup) for each access. 16 bytes of static TLS
// also fit a libmpi.so loaded with dlopen (glibc keeps a reserve for that).
inline thread_local CurrentCall currentCall __attribute__((tls_model("initial-exec"))){};

class CallScope {
 public:
  CallScope(const char* name, MPI_Comm comm) noexcept : previous_(currentCall) { currentCall = {name, comm}; }
  ~CallScope() { currentCall = previous_; }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  CurrentCall previous_;
};

}  // namespace zmpi::mpi
