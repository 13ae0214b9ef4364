#pragma once
// What zmpirun tells the user when a job cannot start or ends badly. The wording follows
// Open MPI's mpirun, which users and their scripts already know, with "zmpirun" for
// "mpirun"; each message names the rank, host and cause it is about.
#include <sys/types.h>

#include <string>
#include <vector>

#include "runtime/common/exit_status.h"

namespace zmpi::runtime::messages {

// Frames `body` between Open MPI's dashed lines.
std::string banner(const std::string& body);

std::string abort(int rank, int code);
std::string killedBySignal(int rank, pid_t pid, const std::string& host, int signal);
std::string nonZeroExit(int rank, pid_t pid, const std::string& host, int code);
// `calledInit`: the rank joined the job (MPI_Init) but never reached MPI_Finalize;
// otherwise it never called MPI_Init while other ranks did.
std::string exitedImproperly(int rank, pid_t pid, const std::string& host, bool calledInit);
std::string timeout(int seconds);
// Some ranks called MPI_Init and `missing` (ranks, hosts[r] their hosts) did not within
// the start-up timeout (ZMPI_STARTUP_TIMEOUT_MS).
std::string startupTimeout(long long milliseconds, const std::vector<int>& missing,
                           const std::vector<std::string>& hosts);
std::string launcherSignaled(int signal);
std::string notEnoughSlots(int requested, int available, const std::string& program);
std::string maxSlotsExceeded(const std::string& reason);
std::string executableNotFound(const std::string& program, const std::string& host);
std::string launchFailed(int rank, const std::string& host, const std::string& program, const std::string& error);
// Contact with a host's agent is lost; `why` names the agent and the cause.
std::string hostLost(const std::string& host, const std::vector<int>& ranks, const std::string& why);
// A multi-host job without the agents' secret; `origin` says where the host was named.
std::string needsSecret(const std::string& host, const std::string& origin);

}  // namespace zmpi::runtime::messages
