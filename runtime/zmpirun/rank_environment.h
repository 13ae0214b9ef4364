#pragma once
// The environment a rank starts with: zmpirun's own (forwarded), then -x variables, then
// the bootstrap contract libmpi reads in MPI_Init (ZMPI_JOB_ID, ZMPI_RANK, ZMPI_SIZE,
// ZMPI_RENDEZVOUS, ZMPI_HOST, ...), and zmpi's lib dir first on LD_LIBRARY_PATH so that
// a binary linked against Open MPI's libmpi.so.40 loads zmpi's library of the same name.
#include <map>
#include <string>
#include <vector>

#include "runtime/common/lib_dir.h"

namespace zmpi::runtime {

struct JobEnvironment {
  std::string jobId;
  std::string rendezvous;  // the rendezvous server's endpoint, as bound
  int size = 0;
  int universeSize = 0;
  std::string libDir;     // zmpi's lib dir; empty: LD_LIBRARY_PATH is left alone
  std::string jobSecret;  // ZMPI_JOB_SECRET for local ranks; remote ones get it sealed
  bool encrypt = false;   // ZMPI_ENCRYPT for every rank: CURVE instead of PLAIN links
};

struct RankEnvironment {
  int rank = 0;
  std::string host;         // logical host name
  std::string bindAddress;  // where the rank binds its tcp endpoint
  int localRank = 0;
  int localSize = 0;
};

// Turns -x values into variables: "VAR=value" sets, "VAR" forwards zmpirun's own value
// (and is dropped, with a warning, if zmpirun has none).
std::map<std::string, std::string> resolveExports(const std::vector<std::string>& exports,
                                                  const std::map<std::string, std::string>& environment);

// zmpirun's environment as a map (from environ).
std::map<std::string, std::string> currentEnvironment();

// The complete environment for one rank, as "NAME=value" entries for execve.
std::vector<std::string> rankEnvironment(std::map<std::string, std::string> base,
                                         const std::map<std::string, std::string>& exports, const JobEnvironment& job,
                                         const RankEnvironment& rank);

// A remote rank's variables, which its agent sets over the agent's own environment (a
// remote host's PATH, HOME and libraries are its own, as with mpirun): -x exports,
// zmpirun's ZMPI_* settings (log level, timeouts, ...) and the bootstrap contract. Never
// the secret, nor settings that only mean something to zmpirun. No LD_LIBRARY_PATH: the
// agent puts its own host's zmpi lib dir first.
std::vector<std::string> remoteRankEnvironment(const std::map<std::string, std::string>& environment,
                                               const std::map<std::string, std::string>& exports,
                                               const JobEnvironment& job, const RankEnvironment& rank);

// A new job id: 16 random hex digits.
std::string newJobId();

}  // namespace zmpi::runtime
