#pragma once
// The bulk connections' spin, read by the bulk I/O thread (bulk_link.cc) and by a waiting
// thread that reads in its place (mpi/core/engine.cc): one setting for both.
#include "transport/settings.h"

namespace zmpi::transport {

inline const IntSetting kBulkSpinSetting{
    "ZMPI_BULK_SPIN_US",
    200,
    {0, 1LL << 30},
    "microseconds",
    Level::Tuning,
    "how long the bulk I/O thread, or a waiting thread reading in its place, polls without sleeping after a "
    "transfer or a frame it delivered"};

}  // namespace zmpi::transport
