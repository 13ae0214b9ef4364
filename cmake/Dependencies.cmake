# Debian 12 packages (scripts/setup-deps.sh installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(ZMQ REQUIRED IMPORTED_TARGET libzmq)
find_package(cppzmq REQUIRED)
find_package(spdlog REQUIRED)
find_package(Protobuf REQUIRED)
find_package(Threads REQUIRED)
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium)
find_package(CLI11 CONFIG QUIET)
find_package(nlohmann_json REQUIRED)
find_package(Catch2 REQUIRED)

# Open MPI's mpi.h only (never its library): the ABI zmpi implements.
find_path(OMPI_INCLUDE_DIR mpi.h
  PATHS /usr/lib/x86_64-linux-gnu/openmpi/include /usr/lib/openmpi/include
  NO_DEFAULT_PATH REQUIRED)
set(OMPI_LIBMPI /usr/lib/x86_64-linux-gnu/libmpi.so.40 CACHE FILEPATH "Open MPI's libmpi (export list reference)")
message(STATUS "Open MPI mpi.h: ${OMPI_INCLUDE_DIR}")
# The cluster managers' client headers (libpmix-dev, libpmi2-0-dev): only their types and
# prototypes are compiled in; the libraries themselves are opened at run time by a rank a
# manager started (mpi/init/shared_library.h), so libmpi.so.40 does not depend on them.
pkg_check_modules(PMIX QUIET pmix)
find_path(PMI2_INCLUDE_DIR slurm/pmi2.h)
