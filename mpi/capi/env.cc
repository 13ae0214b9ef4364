// Environment: init/finalize, thread levels, version, processor name, timers, abort.
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "mpi/capi/entry.h"
#include "mpi/capi/runtime.h"
#include "mpi/comm/communicator.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

extern "C" {

int PMPI_Init(int* argc, char*** argv) {
  return guarded("MPI_Init", [&] {
    Runtime::instance().init(MPI_THREAD_SINGLE);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Init)

int PMPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  return guarded("MPI_Init_thread", [&] {
    require(provided != nullptr, MPI_ERR_ARG, "provided is a null pointer");
    require(required >= MPI_THREAD_SINGLE && required <= MPI_THREAD_MULTIPLE, MPI_ERR_ARG,
            "required thread level is not one of MPI_THREAD_*");
    Runtime::instance().init(required);
    *provided = Runtime::instance().threadLevel();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Init_thread)

int PMPI_Initialized(int* flag) {
  return guarded("MPI_Initialized", [&] {
    require(flag != nullptr, MPI_ERR_ARG, "flag is a null pointer");
    *flag = Runtime::instance().state() != State::NotInitialized;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Initialized)

int PMPI_Finalize(void) {
  return guarded("MPI_Finalize", [&] {
    Runtime::instance().finalize();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Finalize)

int PMPI_Finalized(int* flag) {
  return guarded("MPI_Finalized", [&] {
    require(flag != nullptr, MPI_ERR_ARG, "flag is a null pointer");
    *flag = Runtime::instance().state() == State::Finalized;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Finalized)

int PMPI_Abort(MPI_Comm comm, int errorcode) {
  const int rank = Runtime::instance().world() ? Runtime::instance().world()->rank() : 0;
  std::string name = "MPI_COMM_WORLD";
  if (isHandleOf(comm, HandleKind::Comm) && implOf<Communicator>(comm) && !implOf<Communicator>(comm)->name.empty()) {
    name = implOf<Communicator>(comm)->name;
  }
  abortJob(errorcode, "MPI_ABORT was invoked on rank " + std::to_string(rank) + " in communicator " + name +
                          " with errorcode " + std::to_string(errorcode));
}
ZMPI_ALIAS(MPI_Abort)

int PMPI_Query_thread(int* provided) {
  return guarded("MPI_Query_thread", [&] {
    require(provided != nullptr, MPI_ERR_ARG, "provided is a null pointer");
    *provided = Runtime::instance().threadLevel();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Query_thread)

int PMPI_Is_thread_main(int* flag) {
  return guarded("MPI_Is_thread_main", [&] {
    require(flag != nullptr, MPI_ERR_ARG, "flag is a null pointer");
    requireWorld();
    *flag = Runtime::instance().isMainThread();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Is_thread_main)

int PMPI_Get_version(int* version, int* subversion) {
  return guarded("MPI_Get_version", [&] {
    require(version != nullptr && subversion != nullptr, MPI_ERR_ARG, "version or subversion is a null pointer");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Get_version)

int PMPI_Get_library_version(char* version, int* resultlen) {
  return guarded("MPI_Get_library_version", [&] {
    require(version != nullptr && resultlen != nullptr, MPI_ERR_ARG, "version or resultlen is a null pointer");
    const char* text = "zmpi 0.1.0 (MPI 3.1 over ZeroMQ; Open MPI 4.1 ABI)";
    std::strncpy(version, text, MPI_MAX_LIBRARY_VERSION_STRING - 1);
    version[MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
    *resultlen = static_cast<int>(std::strlen(version));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Get_library_version)

int PMPI_Get_processor_name(char* name, int* resultlen) {
  return guarded("MPI_Get_processor_name", [&] {
    require(name != nullptr && resultlen != nullptr, MPI_ERR_ARG, "name or resultlen is a null pointer");
    std::string host;
    if (Runtime::instance().world()) {
      host = Runtime::instance().world()->host();
    } else {
      char buffer[MPI_MAX_PROCESSOR_NAME] = {};
      gethostname(buffer, sizeof buffer - 1);
      host = buffer;
    }
    std::strncpy(name, host.c_str(), MPI_MAX_PROCESSOR_NAME - 1);
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = static_cast<int>(std::strlen(name));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Get_processor_name)

double PMPI_Wtime(void) {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
ZMPI_ALIAS(MPI_Wtime)

double PMPI_Wtick(void) { return 1e-9; }
ZMPI_ALIAS(MPI_Wtick)

}  // extern "C"
