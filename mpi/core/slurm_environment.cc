#include "mpi/core/slurm_environment.h"

#include <arpa/inet.h>
#include <mpi.h>
#include <netdb.h>

#include <cstdlib>

#include "mpi/core/error.h"

namespace zmpi::mpi {
namespace {

std::string variable(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

int number(const char* name, const std::string& text) {
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') fail(MPI_ERR_OTHER, std::string(name) + "=" + text + " is not a number");
  return static_cast<int>(value);
}

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
  std::string first = nodeList.substr(bracket + 1);
  first = first.substr(0, first.find_first_of("-,]"));
  return nodeList.substr(0, bracket) + first;
}

std::optional<SlurmBootstrap> slurmBootstrapFromEnvironment() {
  const std::string procId = variable("SLURM_PROCID");
  if (procId.empty()) return std::nullopt;
  SlurmBootstrap boot;
  boot.rank = number("SLURM_PROCID", procId);
  boot.size = number("SLURM_NTASKS", variable("SLURM_NTASKS"));
  const std::string jobId = variable("SLURM_JOB_ID");
  const std::string stepId = variable("SLURM_STEP_ID");
  boot.jobId = "slurm-" + jobId + "." + stepId;
  boot.host = variable("SLURMD_NODENAME");
  std::string nodeList = variable("SLURM_STEP_NODELIST");
  if (nodeList.empty()) nodeList = variable("SLURM_NODELIST");
  if (nodeList.empty()) fail(MPI_ERR_OTHER, "SLURM_PROCID is set but SLURM_NODELIST is not");
  const std::string portText = variable("ZMPI_RENDEZVOUS_PORT");
  const int port = !portText.empty() ? number("ZMPI_RENDEZVOUS_PORT", portText)
                                     : 20000 + (jobId.empty() ? 0 : number("SLURM_JOB_ID", jobId) % 20000);
  boot.rendezvous = "tcp://" + (boot.rank == 0 ? std::string("0.0.0.0") : firstHostOfNodeList(nodeList)) + ":" +
                    std::to_string(port);
  boot.bindAddress = reachableAddressOf(boot.host.empty() ? firstHostOfNodeList(nodeList) : boot.host);
  return boot;
}

}  // namespace zmpi::mpi
