#pragma once
// From the command line, the placement and the network plan to one RankLaunch per rank:
// what runs where, with which environment. Local ranks get zmpirun's whole environment and
// a program resolved here; remote ranks get the variables their agent sets over its own
// environment and the program as typed, which the agent resolves on its host.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/zmpirun/job_network.h"
#include "runtime/zmpirun/launcher.h"
#include "runtime/zmpirun/options.h"
#include "runtime/zmpirun/placement.h"
#include "runtime/zmpirun/rank_environment.h"

namespace zmpi::runtime {

struct JobPlanInputs {
  const LaunchOptions& options;
  const std::vector<Host>& hosts;
  const Placement& placement;
  const JobNetwork& network;
  const JobEnvironment& job;  // job.rendezvous: the endpoint the server bound
  const std::map<std::string, std::string>& environment;
  std::optional<std::string> localExecutable;  // resolved here; needed only for local ranks
};

std::vector<RankLaunch> planJob(const JobPlanInputs& inputs);

}  // namespace zmpi::runtime
