#include "runtime/zmpirun/job_plan.h"

#include <filesystem>

namespace zmpi::runtime {

std::vector<RankLaunch> planJob(const JobPlanInputs& in) {
  const auto exports = resolveExports(in.options.exports, in.environment);
  std::error_code error;
  const std::string here = std::filesystem::current_path(error).string();
  std::vector<RankLaunch> launches;
  for (const RankPlacement& rank : in.placement.ranks) {
    const Host& host = in.hosts[static_cast<size_t>(rank.hostIndex)];
    RankLaunch launch;
    launch.rank = rank.rank;
    launch.host = host.name;
    launch.argv.push_back(in.options.program);
    launch.argv.insert(launch.argv.end(), in.options.programArgs.begin(), in.options.programArgs.end());
    launch.receivesStdin = rank.rank == in.options.stdinRank;
    JobEnvironment job = in.job;
    if (host.local) {
      launch.executable = in.localExecutable.value_or(in.options.program);
      job.rendezvous = advertisedEndpoint(in.job.rendezvous, in.network.localRankAddress);
      launch.environment = rankEnvironment(
          in.environment, exports, job,
          RankEnvironment{rank.rank, host.name, in.network.localRankAddress, rank.localRank, rank.localSize});
      launch.workingDirectory = in.options.workingDirectory;
    } else {
      const AgentTarget& agent = in.network.agents.at(host.name);
      launch.remote = true;
      launch.executable = in.options.program;
      job.rendezvous = advertisedEndpoint(in.job.rendezvous, in.network.advertised.at(host.name));
      // The ranks bind the address zmpirun reached their host at: one that peers reach too.
      launch.environment =
          remoteRankEnvironment(in.environment, exports, job,
                                RankEnvironment{rank.rank, host.name, agent.address, rank.localRank, rank.localSize});
      // As mpirun: the same directory as zmpirun's on that host, if it has one.
      launch.workingDirectory = in.options.workingDirectory.empty() ? here : in.options.workingDirectory;
      launch.workingDirectoryRequired = !in.options.workingDirectory.empty();
    }
    launches.push_back(std::move(launch));
  }
  return launches;
}

}  // namespace zmpi::runtime
