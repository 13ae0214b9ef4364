#include "mpi/core/slurm_environment.h"

#include <arpa/inet.h>
#include <mpi.h>
#include <netdb.h>

#include <cstdlib>

#include "mpi/core/environment.h"
#include "mpi/core/error.h"
#include "transport/settings.h"

namespace zmpi::mpi {
namespace {

const transport::IntSetting kRendezvousPortSetting{
    "ZMPI_RENDEZVOUS_PORT",
    transport::Auto{},
    {1, 65535},
    nullptr,
    transport::Level::User,
    "under Slurm without a PMI (srun --mpi=none), the rendezvous port (default: 20000-31999, from the job and "
    "step ids)"};

// The IPv4 address `host` resolves to, so peers on other nodes are never told 127.0.0.1;
// 0.0.0.0 (every interface) when it does not resolve.
std::string reachableAddressOf(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  addrinfo* result = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &result) != 0 || result == nullptr) return "0.0.0.0";
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(result->ai_addr)->sin_addr, text, sizeof text);
  freeaddrinfo(result);
  return text;
}

}  // namespace

std::string firstHostOfNodeList(const std::string& nodeList) {
  const std::size_t comma = nodeList.find(',');
  const std::size_t bracket = nodeList.find('[');
  if (bracket == std::string::npos || (comma != std::string::npos && comma < bracket)) {
    return nodeList.substr(0, comma);
  }
  // prefix[range,...]: the first element of the first range, leading zeros kept.
  const std::size_t open = bracket + 1;
  return nodeList.substr(0, bracket) + nodeList.substr(open, nodeList.find_first_of("-,]", open) - open);
}

std::optional<SlurmBootstrap> slurmBootstrapFromEnvironment() {
  const std::string procId = environmentString("SLURM_PROCID");
  if (procId.empty()) return std::nullopt;
  SlurmBootstrap boot;
  boot.rank = static_cast<int>(parseNumber("SLURM_PROCID", procId));
  boot.size = static_cast<int>(parseNumber("SLURM_NTASKS", environmentString("SLURM_NTASKS")));
  const std::string jobId = environmentString("SLURM_JOB_ID");
  const std::string stepId = environmentString("SLURM_STEP_ID");
  boot.jobId = "slurm-" + jobId + "." + stepId;
  boot.host = environmentString("SLURMD_NODENAME");
  std::string nodeList = environmentString("SLURM_STEP_NODELIST");
  if (nodeList.empty()) nodeList = environmentString("SLURM_NODELIST");
  if (nodeList.empty()) fail(MPI_ERR_OTHER, "SLURM_PROCID is set but SLURM_NODELIST is not");
  const std::optional<long long> port = settingIfSet(kRendezvousPortSetting);
  // Derived from the job and step ids, in 20000-31999: below Linux's ephemeral range (32768
  // and up), where any outgoing connection on the node may hold the port. Steps of one
  // allocation get ports 1009 apart (a prime: 12 steps before two can meet).
  const long long job = jobId.empty() ? 0 : parseNumber("SLURM_JOB_ID", jobId);
  const long long step = stepId.empty() ? 0 : parseNumber("SLURM_STEP_ID", stepId);
  const long long chosen = port.value_or(20000 + (job + step * 1009) % 12000);
  boot.rendezvous = "tcp://" + (boot.rank == 0 ? std::string("0.0.0.0") : firstHostOfNodeList(nodeList)) + ":" +
                    std::to_string(chosen);
  boot.bindAddress = reachableAddressOf(boot.host.empty() ? firstHostOfNodeList(nodeList) : boot.host);
  return boot;
}

}  // namespace zmpi::mpi
