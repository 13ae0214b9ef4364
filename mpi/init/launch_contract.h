#pragma once
// The launcher-to-rank contract: the variables zmpirun (runtime/zmpirun/rank_environment.cc)
// sets for every rank and MPI_Init reads (mpi/core/world.cc, cpu_binding.cc, keyval.cc,
// job_secret.cc). Declared once, here, and included by both sides, so the two can never
// spell a name differently. Ranks started by hand or by a scheduler set the user-level
// ones themselves (README, "Without a launcher").
//
// Header-only on purpose (inline variables: one object per program): zmpirun does not
// link libmpi.
#include <climits>

#include "transport/settings.h"

namespace zmpi::contract {

using transport::Auto;
using transport::BoolSetting;
using transport::IntSetting;
using transport::Level;
using transport::StringSetting;

inline const IntSetting kRank{"ZMPI_RANK",
                              0,
                              {0, INT_MAX},
                              nullptr,
                              Level::User,
                              "this process's rank in MPI_COMM_WORLD (unset: not started by zmpirun or by hand; "
                              "a PMIx/PMI-2 or Slurm environment is used, else a 1-rank world)"};
inline const IntSetting kSize{"ZMPI_SIZE", 1, {1, INT_MAX}, nullptr, Level::User, "ranks in MPI_COMM_WORLD"};
inline const StringSetting kJobId{
    "ZMPI_JOB_ID", "", {}, Level::User, "the job's name, the same on every rank (default: manual-<rendezvous>)"};
inline const StringSetting kRendezvous{"ZMPI_RENDEZVOUS",
                                       "",
                                       {},
                                       Level::User,
                                       "tcp://HOST:PORT where rank 0 (or zmpirun) collects and broadcasts every "
                                       "rank's address; needed when ZMPI_SIZE > 1"};
inline const StringSetting kHost{
    "ZMPI_HOST", "", {}, Level::User, "logical host name: ranks of one name share memory (default: the host name)"};
inline const StringSetting kBindAddress{"ZMPI_BIND_ADDRESS",
                                        "",
                                        {},
                                        Level::User,
                                        "interface the rank binds (default 127.0.0.1 by hand; the node's address "
                                        "under a process manager)"};
inline const IntSetting kLocalRank{
    "ZMPI_LOCAL_RANK", Auto{},          {0, INT_MAX},
    nullptr,           Level::Internal, "the rank's index among its host's ranks (set by zmpirun; CPU binding)"};
inline const IntSetting kLocalSize{"ZMPI_LOCAL_SIZE", 0,
                                   {0, INT_MAX},      nullptr,
                                   Level::Internal,   "ranks on this rank's host (set by zmpirun; 0: unknown)"};
inline const IntSetting kUniverseSize{
    "ZMPI_UNIVERSE_SIZE", Auto{},
    {0, INT_MAX},         nullptr,
    Level::Internal,      "MPI_UNIVERSE_SIZE (set by zmpirun: its slots; default the world's size)"};
inline const IntSetting kAppNum{"ZMPI_APPNUM", 0, {0, INT_MAX}, nullptr, Level::Internal, "MPI_APPNUM"};
inline const BoolSetting kLaunched{"ZMPI_LAUNCHED", false, Level::Internal,
                                   "set by zmpirun: it hosts the rendezvous and binds the ranks"};
inline const BoolSetting kEncrypt{"ZMPI_ENCRYPT", false, Level::User,
                                  "encrypt every link of the job (zmq CURVE; zmpirun --encrypt); the same on "
                                  "every rank"};
inline const StringSetting kJobSecret{"ZMPI_JOB_SECRET",
                                      "",
                                      {},
                                      Level::User,
                                      "the job's secret (at least 16 bytes; zmpirun makes one): rank links are "
                                      "authenticated with keys derived from it; wiped at MPI_Init",
                                      StringSetting::Shown::Hidden};
inline const StringSetting kJobSecretFile{"ZMPI_JOB_SECRET_FILE",
                                          "",
                                          {},
                                          Level::User,
                                          "a file (at most 4 KiB, readable by its owner only) holding the job's "
                                          "secret, for ranks started without zmpirun"};
inline const IntSetting kStartupTimeoutMs{"ZMPI_STARTUP_TIMEOUT_MS",
                                          30000,
                                          {0, 1LL << 40},
                                          "milliseconds",
                                          Level::User,
                                          "how long MPI_Init (and zmpirun) wait for every rank to come; a rank "
                                          "that never comes is named"};
inline const StringSetting kBindTo{"ZMPI_BIND_TO",
                                   "",
                                   {},
                                   Level::User,
                                   "CPU binding: core|hwthread|package|none[:overload-allowed] (zmpirun's "
                                   "--bind-to; default as Open MPI's mpirun: core up to 2 ranks a host, package "
                                   "above, none when oversubscribed)"};

}  // namespace zmpi::contract
