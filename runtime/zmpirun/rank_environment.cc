#include "runtime/zmpirun/rank_environment.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "mpi/init/launch_contract.h"
#include "runtime/common/job_secret.h"
#include "runtime/common/secret.h"
#include "transport/log.h"

extern char** environ;

namespace zmpi::runtime {

std::map<std::string, std::string> resolveExports(const std::vector<std::string>& exports,
                                                  const std::map<std::string, std::string>& environment) {
  std::map<std::string, std::string> resolved;
  for (const std::string& item : exports) {
    const size_t equals = item.find('=');
    if (equals != std::string::npos) {
      resolved[item.substr(0, equals)] = item.substr(equals + 1);
      continue;
    }
    if (auto it = environment.find(item); it != environment.end()) {
      resolved[item] = it->second;
    } else {
      log::get("runtime")->warn("-x {}: no such variable in zmpirun's environment; not exported", item);
    }
  }
  return resolved;
}

std::map<std::string, std::string> currentEnvironment() {
  std::map<std::string, std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const size_t equals = text.find('=');
    if (equals != std::string::npos) environment.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return environment;
}

std::vector<std::string> rankEnvironment(std::map<std::string, std::string> base,
                                         const std::map<std::string, std::string>& exports, const JobEnvironment& job,
                                         const RankEnvironment& rank) {
  for (const auto& [name, value] : exports) base[name] = value;
  // The agents' secret proves a launch is genuine; a rank has no use for it.
  std::erase_if(base, [](const auto& entry) { return isSecretVariable(entry.first); });
  // The bootstrap contract comes last: neither zmpirun's environment (a zmpirun started
  // from inside a rank) nor -x may override it.
  // (mpi/init/launch_contract.h: the names, shared with MPI_Init.)
  base[contract::kJobId.name()] = job.jobId;
  base[contract::kRank.name()] = std::to_string(rank.rank);
  base[contract::kSize.name()] = std::to_string(job.size);
  base[contract::kRendezvous.name()] = job.rendezvous;
  base[contract::kHost.name()] = rank.host;
  base[contract::kBindAddress.name()] = rank.bindAddress;
  base[contract::kLocalRank.name()] = std::to_string(rank.localRank);
  base[contract::kLocalSize.name()] = std::to_string(rank.localSize);
  base[contract::kUniverseSize.name()] = std::to_string(job.universeSize);
  base[contract::kAppNum.name()] = "0";
  base[contract::kLaunched.name()] = "1";
  base[contract::kEncrypt.name()] = job.encrypt ? "1" : "0";  // every rank and the rendezvous agree
  if (!job.jobSecret.empty()) base[contract::kJobSecret.name()] = job.jobSecret;
  if (!job.libDir.empty()) {
    auto& path = base["LD_LIBRARY_PATH"];
    path = path.empty() ? job.libDir : job.libDir + ":" + path;
  }
  std::vector<std::string> entries;
  entries.reserve(base.size());
  for (const auto& [name, value] : base) entries.push_back(name + "=" + value);
  return entries;
}

std::vector<std::string> remoteRankEnvironment(const std::map<std::string, std::string>& environment,
                                               const std::map<std::string, std::string>& exports,
                                               const JobEnvironment& job, const RankEnvironment& rank) {
  static const char* const kLauncherOnly[] = {"ZMPI_SECRET_FILE", "ZMPI_LIBDIR", "ZMPI_AGENT_PORT",
                                              "ZMPI_LAUNCHER_ADDRESS", "ZMPI_AGENT_TIMEOUT_MS"};
  std::map<std::string, std::string> base;
  for (const auto& [name, value] : environment) {
    if (!name.starts_with("ZMPI_")) continue;
    if (std::find(std::begin(kLauncherOnly), std::end(kLauncherOnly), name) != std::end(kLauncherOnly)) continue;
    base[name] = value;
  }
  JobEnvironment remoteJob = job;
  remoteJob.libDir.clear();
  remoteJob.jobSecret.clear();  // travels sealed in the Launch instead
  return rankEnvironment(std::move(base), exports, remoteJob, rank);
}

std::string newJobId() {
  std::random_device random;
  std::uniform_int_distribution<uint64_t> digits;
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digits(random)));
  return text;
}

}  // namespace zmpi::runtime
