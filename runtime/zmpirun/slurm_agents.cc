#include "runtime/zmpirun/slurm_agents.h"

#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>

#include "runtime/common/spawn.h"
#include "runtime/zmpirun/rank_environment.h"

namespace zmpi::runtime {
namespace {

constexpr std::chrono::milliseconds kStopGrace{3000};

// Waits for `pid` to exit, at most `limit`, on a pidfd (no polling loop); true if it did.
bool exitsWithin(pid_t pid, std::chrono::milliseconds limit) {
  const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (fd < 0) return ::waitpid(pid, nullptr, WNOHANG) == pid || errno == ECHILD;
  pollfd entry{fd, POLLIN, 0};
  const bool exited = ::poll(&entry, 1, static_cast<int>(limit.count())) > 0;
  ::close(fd);
  return exited;
}

std::vector<std::string> srunCommand(const SlurmAllocation& allocation, const std::string& zmpidPath) {
  const std::string nodes = std::to_string(allocation.nodes.size());
  return {"srun",
          "--nodes=" + nodes,
          "--ntasks=" + nodes,
          "--ntasks-per-node=1",
          "--kill-on-bad-exit=1",
          "--mpi=none",     // the agents need no PMI; the ranks they start take zmpirun's world
          "--overlap",      // beside the user's other steps (a second zmpirun, say)
          "--cpu-bind=none",  // the ranks inherit the agent's CPUs: all of the node's
          "--label",
          "--input=all",    // every zmpid's stdin: closing it ends the step quietly
          "--quiet",
          "--job-name=zmpid",
          zmpidPath,
          "--bind",
          "auto:0",
          "--until-stdin-closes"};
}

}  // namespace

bool parseAgentLine(const std::string& line, int& task, std::string& address, int& port) {
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return false;
  const size_t first = line.find_first_not_of(' ');
  if (first >= colon) return false;
  const auto parsedTask = std::from_chars(line.data() + first, line.data() + colon, task);
  if (parsedTask.ec != std::errc() || parsedTask.ptr != line.data() + colon || task < 0) return false;
  const std::string marker = "zmpid: listening on tcp://";
  const size_t at = line.find(marker, colon);
  if (at == std::string::npos) return false;
  const size_t start = at + marker.size();
  const size_t end = line.find_first_of(" \n", start);
  const std::string endpoint = line.substr(start, end == std::string::npos ? std::string::npos : end - start);
  const size_t portColon = endpoint.rfind(':');
  if (portColon == std::string::npos || portColon == 0) return false;
  address = endpoint.substr(0, portColon);
  const auto parsedPort = std::from_chars(endpoint.data() + portColon + 1, endpoint.data() + endpoint.size(), port);
  return parsedPort.ec == std::errc() && parsedPort.ptr == endpoint.data() + endpoint.size() && port > 0 &&
         port <= 65535;
}

SlurmAgents::SlurmAgents(const SlurmAllocation& allocation, const std::string& zmpidPath, const std::string& secret,
                         std::chrono::milliseconds timeout) {
  const auto environment = currentEnvironment();
  const auto path = environment.count("PATH") ? environment.at("PATH") : std::string("/usr/bin:/bin");
  const auto srun = findExecutable("srun", "", path);
  if (!srun) throw AllocationError("inside Slurm allocation " + allocation.jobId + " but srun is not on the PATH");
  Pipe output = makePipe();
  Pipe input = makePipe();
  SpawnRequest request;
  request.path = *srun;
  request.argv = srunCommand(allocation, zmpidPath);
  for (const auto& [name, value] : environment) {
    if (name != "ZMPI_SECRET" && name != "ZMPI_SECRET_FILE") request.environment.push_back(name + "=" + value);
  }
  request.environment.push_back("ZMPI_SECRET=" + secret);  // read and removed by each zmpid
  request.stdinFd = input.read.get();
  request.stdoutFd = output.write.get();
  srun_ = spawnProcess(request);
  output.write.reset();
  output_ = std::move(output.read);
  input.read.reset();
  input_ = std::move(input.write);

  std::vector<bool> reported(allocation.nodes.size(), false);
  size_t missing = allocation.nodes.size();
  std::string pending;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool ended = false;
  while (missing > 0 && !ended) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd entry{output_.get(), POLLIN, 0};
    if (::poll(&entry, 1, static_cast<int>(left.count())) <= 0) continue;
    char buffer[4096];
    const ssize_t got = ::read(output_.get(), buffer, sizeof buffer);
    if (got <= 0) {
      ended = !(got < 0 && errno == EINTR);
      continue;
    }
    pending.append(buffer, static_cast<size_t>(got));
    for (size_t newline; (newline = pending.find('\n')) != std::string::npos; pending.erase(0, newline + 1)) {
      int task = -1;
      StartedAgent agent;
      if (!parseAgentLine(pending.substr(0, newline), task, agent.address, agent.port)) continue;
      if (static_cast<size_t>(task) >= reported.size() || reported[static_cast<size_t>(task)]) continue;
      agent.node = allocation.nodes[static_cast<size_t>(task)].name;
      reported[static_cast<size_t>(task)] = true;
      agents_.push_back(agent);
      --missing;
    }
  }
  if (missing == 0) return;
  std::string silent;
  for (size_t i = 0; i < reported.size(); ++i) {
    if (!reported[i]) silent += (silent.empty() ? "" : ", ") + allocation.nodes[i].name;
  }
  stop();  // the destructor does not run for a constructor that throws
  throw AllocationError("the zmpid agents that srun started on the nodes of allocation " + allocation.jobId + " (" +
                        silent + ") did not report " +
                        (ended ? std::string("before srun ended") : "within " + std::to_string(timeout.count()) +
                                                                        " ms (ZMPI_STARTUP_TIMEOUT_MS)"));
}

SlurmAgents::~SlurmAgents() { stop(); }

void SlurmAgents::stop() {
  if (srun_ <= 0) return;
  input_.reset();  // every zmpid sees the end of its stdin and stops; then srun ends
  if (!exitsWithin(srun_, kStopGrace)) {
    ::kill(srun_, SIGTERM);
    if (!exitsWithin(srun_, kStopGrace)) ::kill(srun_, SIGKILL);
  }
  ::waitpid(srun_, nullptr, 0);
  srun_ = -1;
}

}  // namespace zmpi::runtime
