#pragma once
// Settings read by more than one collective file (direct.cc, select.cc, shm_area.cc):
// declared once, here.
#include "transport/experiments.h"
#include "transport/settings.h"

namespace zmpi::mpi::coll {

// Off: every collective sends its plan's messages (no direct calls, no shared segment).
inline const transport::Experiment kCollDirectExperiment{
    "coll-direct", true, "ZMPI_COLL_DIRECT",
    "small blocking collectives run directly, and same-host ones through a shared segment (off: the plans' "
    "messages, for comparisons and tests)"};

inline const transport::StringSetting kBcastAlgorithmSetting{
    "ZMPI_COLL_BCAST",
    "",
    {"binomial", "scatter_allgather"},
    transport::Level::Tuning,
    "forces MPI_Bcast's algorithm (default: by size and ranks)"};
inline const transport::StringSetting kAllreduceAlgorithmSetting{
    "ZMPI_COLL_ALLREDUCE",
    "",
    {"recursive_doubling", "rabenseifner", "ring"},
    transport::Level::Tuning,
    "forces MPI_Allreduce's algorithm where it fits the call (default: by size, ranks and op)"};
inline const transport::StringSetting kAllgatherAlgorithmSetting{
    "ZMPI_COLL_ALLGATHER",
    "",
    {"recursive_doubling", "bruck", "ring"},
    transport::Level::Tuning,
    "forces MPI_Allgather's algorithm where it fits the call (default: by size and ranks)"};
inline const transport::StringSetting kGatherAlgorithmSetting{"ZMPI_COLL_GATHER",
                                                              "",
                                                              {"binomial", "linear"},
                                                              transport::Level::Tuning,
                                                              "forces MPI_Gather's algorithm (default: by size)"};
inline const transport::StringSetting kScatterAlgorithmSetting{"ZMPI_COLL_SCATTER",
                                                               "",
                                                               {"binomial", "linear"},
                                                               transport::Level::Tuning,
                                                               "forces MPI_Scatter's algorithm (default: by size)"};
inline const transport::IntSetting kSegmentBytesSetting{
    "ZMPI_COLL_SEGMENT_BYTES",
    transport::Auto{},
    {0, 1LL << 40},
    "bytes",
    transport::Level::Tuning,
    "pieces large collectives are cut into (default: by placement; 0: no pieces)"};

}  // namespace zmpi::mpi::coll
