#pragma once
// ZMPI_TRANSPORT caps the path between ranks; the fabric (zmq_fabric.cc) and the shared-memory
// collectives (coll/shm_area.cc) both read it.
#include "transport/settings.h"

namespace zmpi::mpi {

inline const transport::StringSetting kTransportSetting{
    "ZMPI_TRANSPORT",
    "shm",
    {"shm", "ipc", "tcp"},
    transport::Level::User,
    "the fastest path ranks may use: shm (shared memory between same-host ranks), ipc, or tcp (everything over "
    "tcp)"};

}  // namespace zmpi::mpi
