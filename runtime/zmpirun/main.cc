// zmpirun: starts an MPI program on N ranks, the way mpirun does. See options.cc for the
// command line, job_network.h for where a multi-host job listens, job_plan.h for what each
// rank gets, job_monitor.h for how a job is followed and ended.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "mpi/init/launch_contract.h"
#include "runtime/common/job_secret.h"
#include "runtime/common/secret.h"
#include "runtime/common/signals.h"
#include "runtime/common/spawn.h"
#include "runtime/common/unique_fd.h"
#include "runtime/zmpirun/composite_launcher.h"
#include "runtime/zmpirun/hostfile.h"
#include "runtime/zmpirun/hosts.h"
#include "runtime/zmpirun/job_events.h"
#include "runtime/zmpirun/job_monitor.h"
#include "runtime/zmpirun/job_network.h"
#include "runtime/zmpirun/job_plan.h"
#include "runtime/zmpirun/launcher_settings.h"
#include "runtime/zmpirun/local_launcher.h"
#include "runtime/zmpirun/messages.h"
#include "runtime/zmpirun/options.h"
#include "runtime/zmpirun/placement.h"
#include "runtime/zmpirun/rank_environment.h"
#include "runtime/zmpirun/remote_launcher.h"
#include "runtime/zmpirun/slurm_agents.h"
#include "transport/context.h"
#include "transport/errors.h"
#include "transport/job_files.h"
#include "transport/link_security.h"
#include "transport/log.h"
#include "transport/rendezvous.h"
#include "transport/settings.h"
#include "transport/socket.h"
#include "transport/wire.h"

namespace zmpi::runtime {
namespace {

std::chrono::milliseconds millisecondsFromEnvironment(const transport::IntSetting& setting,
                                                      std::chrono::milliseconds fallback) {
  return std::chrono::milliseconds(setting.readIfSet().value_or(fallback.count()));
}

int fail(const std::string& message) {
  std::fputs(message.c_str(), stderr);
  if (!message.ends_with('\n')) std::fputc('\n', stderr);
  return 1;
}

std::vector<HostEntry> hostEntries(const LaunchOptions& options) {
  if (!options.hostfile.empty() && !options.hosts.empty()) {
    throw HostfileError("--host and --hostfile together are not supported; use one of them");
  }
  if (!options.hostfile.empty()) {
    try {
      return readHostfile(options.hostfile);
    } catch (const HostfileError& error) {
      // A hostfile nobody named on the command line: say where its name came from.
      if (options.hostfileVariable.empty()) throw;
      throw HostfileError(std::string(error.what()) + " (named by " + options.hostfileVariable + ")");
    }
  }
  std::vector<HostEntry> entries;
  for (const std::string& list : options.hosts) {
    for (HostEntry& entry : parseHostList(list)) entries.push_back(std::move(entry));
  }
  return entries;
}

int totalSlots(const std::vector<Host>& hosts) {
  int slots = 0;
  for (const Host& host : hosts) slots += host.slots;
  return slots;
}

// The hosts that run at least one rank.
std::vector<Host> usedHosts(const std::vector<Host>& hosts, const Placement& placement) {
  std::vector<bool> used(hosts.size(), false);
  for (const RankPlacement& rank : placement.ranks) used[static_cast<size_t>(rank.hostIndex)] = true;
  std::vector<Host> result;
  for (size_t i = 0; i < hosts.size(); ++i) {
    if (used[i]) result.push_back(hosts[i]);
  }
  return result;
}

// zmpid beside this zmpirun (bin/ of the build tree or of an installation).
std::string zmpidBesideUs() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string("zmpid") : (self.parent_path() / "zmpid").string();
}

// Inside a Slurm allocation with no host list: agents on its nodes, started by srun, and
// the allocation's nodes as the hosts (all of them reached through their agent).
std::vector<Host> allocationHosts(const SlurmAllocation& allocation, const SlurmAgents& agents) {
  std::vector<Host> hosts;
  for (const SlurmNode& node : allocation.nodes) {
    Host host;
    host.name = node.name;
    host.slots = node.slots;
    host.origin = "Slurm allocation " + allocation.jobId;
    for (const StartedAgent& agent : agents.agents()) {
      if (agent.node == node.name) host.agentPort = agent.port;
    }
    hosts.push_back(std::move(host));
  }
  return hosts;
}

std::map<std::string, std::string> agentAddresses(const SlurmAgents* agents) {
  std::map<std::string, std::string> addresses;
  if (agents == nullptr) return addresses;
  for (const StartedAgent& agent : agents->agents()) addresses[agent.node] = agent.address;
  return addresses;
}

std::unique_ptr<Launcher> makeLauncher(const JobNetwork& network, const std::optional<Secret>& secret,
                                       const std::string& jobId, const std::string& jobSecret,
                                       const MonitorSettings& settings, pid_t agentsSrun) {
  auto local = std::make_unique<LocalLauncher>(STDIN_FILENO, agentsSrun);
  if (network.agents.empty()) return local;
  RemoteSettings remote;
  remote.jobId = jobId;
  remote.jobSecret = jobSecret;
  remote.agentTimeout = millisecondsFromEnvironment(kAgentTimeoutSetting, remote.agentTimeout);
  remote.heartbeatInterval = millisecondsFromEnvironment(kHeartbeatSetting, remote.heartbeatInterval);
  remote.heartbeatTimeout = millisecondsFromEnvironment(kHeartbeatTimeoutSetting, remote.heartbeatTimeout);
  remote.killGrace = settings.killGrace;
  return std::make_unique<CompositeLauncher>(
      std::move(local), std::make_unique<RemoteLauncher>(*secret, network.agents, remote, STDIN_FILENO));
}

int runJob(const LaunchOptions& options) {
  std::vector<Host> hosts;
  Placement placement;
  const bool oversubscribe = oversubscriptionAllowed(options);
  // Started agents and their secret, inside a Slurm allocation given no host list.
  std::unique_ptr<SlurmAgents> allocationAgents;
  std::optional<Secret> secret;
  try {
    std::optional<SlurmAllocation> allocation;
    if (options.hosts.empty() && options.hostfile.empty()) allocation = slurmAllocation(currentEnvironment());
    if (allocation) {
      const std::string agentSecret = newJobSecret();
      allocationAgents = std::make_unique<SlurmAgents>(*allocation, zmpidBesideUs(), agentSecret,
                                                       std::chrono::milliseconds(contract::kStartupTimeoutMs.read()));
      secret.emplace(agentSecret);
      hosts = allocationHosts(*allocation, *allocationAgents);
    } else {
      hosts = resolveHosts(hostEntries(options));
    }
    placement = placeRanks(hosts, options.np, oversubscribe, options.mapByNode ? MapBy::Node : MapBy::Slot);
  } catch (const HostfileError& error) {
    return fail(std::string("zmpirun: ") + error.what());
  } catch (const AllocationError& error) {
    return fail(std::string("zmpirun: ") + error.what());
  } catch (const PlacementError& error) {
    if (oversubscribe) return fail(messages::maxSlotsExceeded(error.what()));
    return fail(messages::notEnoughSlots(error.requested(), error.available(), options.program));
  }
  const std::vector<Host> used = usedHosts(hosts, placement);
  const bool anyLocal = std::any_of(used.begin(), used.end(), [](const Host& h) { return h.local; });
  const bool anyRemote = std::any_of(used.begin(), used.end(), [](const Host& h) { return !h.local; });
  // Read before anything else looks at the environment: loading removes ZMPI_SECRET from it.
  JobNetwork network;
  try {
    if (anyRemote && !secret) {
      secret = loadSecret();
      const Host& remote = *std::find_if(used.begin(), used.end(), [](const Host& h) { return !h.local; });
      if (!secret) return fail(messages::needsSecret(remote.name, remote.origin));
    }
    network =
        planJobNetwork(used, options.agentPort, kLauncherAddressSetting.read(), agentAddresses(allocationAgents.get()));
  } catch (const SecretError& error) {
    return fail(std::string("zmpirun: ") + error.what());
  } catch (const NetworkError& error) {
    return fail(std::string("zmpirun: ") + error.what());
  }
  const auto environment = currentEnvironment();
  const auto path = environment.count("PATH") ? environment.at("PATH") : std::string("/usr/bin:/bin");
  const auto executable = findExecutable(options.program, options.workingDirectory, path);
  if (anyLocal && !executable) {
    std::fputs(messages::executableNotFound(options.program, localHostName()).c_str(), stderr);
    return kLaunchFailedExitCode;
  }

  const int size = static_cast<int>(placement.ranks.size());
  const std::string jobId = newJobId();
  auto logger = log::get("runtime");
  log::setRankTag("zmpirun");
  if (const int slots = totalSlots(hosts); size > slots) {
    // Allowed, or placeRanks would have refused: the implicit local host, or
    // --oversubscribe. Quiet by default: one line at info level.
    logger->info("{} ranks on {} slot(s){}: oversubscribed, ranks share cores", size, slots,
                 hosts.size() == 1 ? " (" + hosts.front().origin + ")" : std::string());
  }
  // What jobs killed together with their launcher and ranks (SIGKILL) left on this host.
  if (anyLocal) {
    if (int removed = transport::removeStaleJobFiles(transport::kStaleFileAge); removed > 0) {
      logger->debug("removed {} file(s) that killed jobs left in /dev/shm and /tmp", removed);
    }
  }

  // The job's secret: its ranks and this rendezvous accept only each other
  // (transport/link_security.h: PLAIN with a token by default, CURVE with --encrypt).
  bool encrypt = options.encrypt;
  std::shared_ptr<const transport::LinkKeys> jobKeys;
  const std::string jobSecret = newJobSecret();
  try {
    // A malformed ZMPI_LINGER_MS fails here, named, before any socket or thread exists.
    transport::SocketOptions::defaultLinger();
    encrypt = encrypt || contract::kEncrypt.read();
    for (const std::string& item : options.exports) {  // -x ZMPI_ENCRYPT=VALUE asks for it too
      const std::string prefix = std::string(transport::kEncryptVariable) + "=";
      if (item.starts_with(prefix)) encrypt = encrypt || transport::encryptionRequested(item.c_str() + prefix.size());
    }
    jobKeys = transport::deriveLinkKeys(jobSecret, encrypt);
  } catch (const transport::TransportError& error) {
    return fail(std::string("zmpirun: ") + error.what());
  }
  logger->debug("job {}: rank links {}", jobId, encrypt ? "encrypted (CURVE)" : "authenticated (PLAIN token)");
  transport::ContextOwner context;
  transport::ZapAuthenticator zap(jobKeys);
  JobEventQueue events;
  const auto startupTimeout = std::chrono::milliseconds(contract::kStartupTimeoutMs.read());
  const auto startupDeadline = std::chrono::steady_clock::now() + startupTimeout;  // the server's clock starts now
  transport::RendezvousServer server(network.rendezvousBind, transport::jobHashOf(jobId), size, startupTimeout,
                                     events.eventHandler(), events.joinHandler(), jobKeys);
  JobEnvironment job{jobId, server.endpoint(), size, placement.universeSize, findZmpiLibDir(), jobSecret, encrypt};
  if (job.libDir.empty() && ZMPI_EXPECTS_LIBMPI && anyLocal) {
    logger->warn(
        "zmpi's libmpi.so.40 was not found next to zmpirun; MPI programs will load whichever "
        "libmpi.so.40 the loader finds (set ZMPI_LIBDIR to point at zmpi's lib dir)");
  }
  logger->debug("job {}: {} ranks, rendezvous at {}, lib dir '{}'", jobId, size, job.rendezvous, job.libDir);
  for (const auto& [name, agent] : network.agents) {
    logger->debug("{}: ranks bind {}, reach zmpirun at {}", agent.describe(), agent.address,
                  network.advertised.at(name));
  }

  const std::vector<RankLaunch> launches =
      planJob(JobPlanInputs{options, hosts, placement, network, job, environment, executable});
  std::vector<std::string> rankHosts;
  for (const RankLaunch& launch : launches) rankHosts.push_back(launch.host);

  MonitorSettings settings;
  settings.timeout = std::chrono::seconds(options.timeoutSeconds);
  settings.killGrace = millisecondsFromEnvironment(kKillGraceSetting, settings.killGrace);
  settings.eventGrace = millisecondsFromEnvironment(kEventGraceSetting, settings.eventGrace);
  settings.outputDrain = millisecondsFromEnvironment(kOutputDrainSetting, settings.outputDrain);
  settings.startupDeadline = startupDeadline;
  settings.startupTimeout = startupTimeout;
  int status;
  {
    std::unique_ptr<Launcher> launcher =
        makeLauncher(network, secret, jobId, jobSecret, settings, allocationAgents ? allocationAgents->srunPid() : 0);
    OutputForwarder output(STDOUT_FILENO, STDERR_FILENO, options.tagOutput);
    JobMonitor monitor(*launcher, events, output, rankHosts, settings);
    status = monitor.run(launches);
  }
  // Every local rank is gone: remove the shared-memory objects and ipc files that a rank
  // killed before unlinking them left behind.
  if (anyLocal) {
    if (int removed = transport::removeJobFiles(transport::jobHashOf(jobId)); removed > 0) {
      logger->debug("job {}: removed {} file(s) its ranks left in /dev/shm and /tmp", jobId, removed);
    }
  }
  server.stop();
  return status;
}

}  // namespace
}  // namespace zmpi::runtime

int main(int argc, char** argv) {
  using namespace zmpi::runtime;
  ensureStandardDescriptors();
  // Before anything starts a thread (zmq, the rendezvous server, spdlog): see signals.h.
  blockLauncherSignals();
  const ParseResult parsed = parseCommandLine(argc, argv, std::getenv("MPIEXEC_TIMEOUT"));
  if (!parsed.options) return parsed.exitCode;
  try {
    return runJob(*parsed.options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "zmpirun: %s\n", error.what());
    return 1;
  }
}
