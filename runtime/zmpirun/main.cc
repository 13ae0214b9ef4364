// zmpirun: starts an MPI program on N ranks, the way mpirun does. See options.cc for the
// command line, job_monitor.h for how a job is followed and ended.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "runtime/common/signals.h"
#include "runtime/common/spawn.h"
#include "runtime/common/unique_fd.h"
#include "runtime/zmpirun/hostfile.h"
#include "runtime/zmpirun/hosts.h"
#include "runtime/zmpirun/job_events.h"
#include "runtime/zmpirun/job_monitor.h"
#include "runtime/zmpirun/local_launcher.h"
#include "runtime/zmpirun/messages.h"
#include "runtime/zmpirun/options.h"
#include "runtime/zmpirun/placement.h"
#include "runtime/zmpirun/rank_environment.h"
#include "transport/context.h"
#include "transport/log.h"
#include "transport/rendezvous.h"
#include "transport/wire.h"

namespace zmpi::runtime {
namespace {

// Single-host jobs: the rendezvous server and every rank listen on loopback only.
constexpr const char* kLocalBindAddress = "127.0.0.1";

std::chrono::milliseconds millisecondsFromEnvironment(const char* name, std::chrono::milliseconds fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  return std::chrono::milliseconds(std::atoll(value));
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
  if (!options.hostfile.empty()) return readHostfile(options.hostfile);
  std::vector<HostEntry> entries;
  for (const std::string& list : options.hosts) {
    for (HostEntry& entry : parseHostList(list)) entries.push_back(std::move(entry));
  }
  return entries;
}

int runJob(const LaunchOptions& options) {
  std::vector<Host> hosts;
  Placement placement;
  try {
    hosts = resolveHosts(hostEntries(options));
    placement = placeRanks(hosts, options.np, options.oversubscribe);
  } catch (const HostfileError& error) {
    return fail(std::string("zmpirun: ") + error.what());
  } catch (const PlacementError& error) {
    if (options.oversubscribe) return fail(messages::maxSlotsExceeded(error.what()));
    return fail(messages::notEnoughSlots(error.requested(), error.available(), options.program));
  }
  for (const RankPlacement& rank : placement.ranks) {
    const Host& host = hosts[static_cast<size_t>(rank.hostIndex)];
    if (!host.local) return fail(messages::needsZmpid(host.name, host.origin));
  }
  const auto environment = currentEnvironment();
  const auto path = environment.count("PATH") ? environment.at("PATH") : std::string("/usr/bin:/bin");
  const auto executable = findExecutable(options.program, options.workingDirectory, path);
  if (!executable) {
    std::fputs(messages::executableNotFound(options.program, localHostName()).c_str(), stderr);
    return kLaunchFailedExitCode;
  }

  const int size = static_cast<int>(placement.ranks.size());
  const std::string jobId = newJobId();
  auto logger = log::get("runtime");
  log::setRankTag("zmpirun");

  transport::ContextOwner context;
  JobEventQueue events;
  transport::RendezvousServer server(std::string("tcp://") + kLocalBindAddress + ":*", transport::jobHashOf(jobId),
                                     size,
                                     millisecondsFromEnvironment("ZMPI_STARTUP_TIMEOUT_MS", std::chrono::seconds(30)),
                                     events.eventHandler(), events.joinHandler());
  JobEnvironment job{jobId, server.endpoint(), size, placement.universeSize, findZmpiLibDir()};
  if (job.libDir.empty() && ZMPI_EXPECTS_LIBMPI) {
    logger->warn(
        "zmpi's libmpi.so.40 was not found next to zmpirun; MPI programs will load whichever "
        "libmpi.so.40 the loader finds (set ZMPI_LIBDIR to point at zmpi's lib dir)");
  }
  logger->debug("job {}: {} ranks, rendezvous at {}, lib dir '{}'", jobId, size, job.rendezvous, job.libDir);

  const auto exports = resolveExports(options.exports, environment);
  std::vector<RankLaunch> launches;
  std::vector<std::string> rankHosts;
  for (const RankPlacement& rank : placement.ranks) {
    const Host& host = hosts[static_cast<size_t>(rank.hostIndex)];
    RankLaunch launch;
    launch.rank = rank.rank;
    launch.host = host.name;
    launch.executable = *executable;
    launch.argv.push_back(options.program);
    launch.argv.insert(launch.argv.end(), options.programArgs.begin(), options.programArgs.end());
    launch.environment =
        rankEnvironment(environment, exports, job,
                        RankEnvironment{rank.rank, host.name, kLocalBindAddress, rank.localRank, rank.localSize});
    launch.workingDirectory = options.workingDirectory;
    launch.receivesStdin = rank.rank == options.stdinRank;
    launches.push_back(std::move(launch));
    rankHosts.push_back(host.name);
  }

  MonitorSettings settings;
  settings.timeout = std::chrono::seconds(options.timeoutSeconds);
  settings.killGrace = millisecondsFromEnvironment("ZMPI_KILL_GRACE_MS", settings.killGrace);
  settings.eventGrace = millisecondsFromEnvironment("ZMPI_EVENT_GRACE_MS", settings.eventGrace);
  int status;
  {
    LocalLauncher launcher(STDIN_FILENO);
    OutputForwarder output(STDOUT_FILENO, STDERR_FILENO, options.tagOutput);
    JobMonitor monitor(launcher, events, output, rankHosts, settings);
    status = monitor.run(launches);
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
