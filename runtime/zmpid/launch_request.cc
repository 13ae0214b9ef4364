#include "runtime/zmpid/launch_request.h"

#include <cctype>
#include <filesystem>
#include <set>

#include "runtime/common/addresses.h"
#include "runtime/common/secret.h"
#include "runtime/common/spawn.h"

namespace zmpi::runtime {
namespace {

void checkString(const std::string& text, const std::string& what, const LaunchLimits& limits, int rank = -1) {
  if (text.size() > limits.maxStringBytes) {
    throw RequestError(what + " is longer than " + std::to_string(limits.maxStringBytes) + " bytes", rank);
  }
  if (text.find('\0') != std::string::npos) throw RequestError(what + " contains a NUL byte", rank);
}

bool validVariableName(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

bool validJobId(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  return true;
}

std::vector<std::string> mergedEnvironment(const proto::RankSpec& spec, const AgentContext& context,
                                           const LaunchLimits& limits) {
  if (static_cast<size_t>(spec.environment_size()) > limits.maxEnvironment) {
    throw RequestError("more than " + std::to_string(limits.maxEnvironment) + " environment variables", spec.rank());
  }
  std::map<std::string, std::string> environment = context.environment;
  for (const std::string& entry : spec.environment()) {
    checkString(entry, "an environment entry", limits, spec.rank());
    const size_t equals = entry.find('=');
    const std::string name = entry.substr(0, equals);
    if (equals == std::string::npos || !validVariableName(name)) {
      throw RequestError("environment entry '" + entry.substr(0, 64) + "' is not NAME=value", spec.rank());
    }
    if (isSecretVariable(name)) continue;
    environment[name] = entry.substr(equals + 1);
  }
  if (!context.libDir.empty()) {
    auto& path = environment["LD_LIBRARY_PATH"];
    path = path.empty() ? context.libDir : context.libDir + ":" + path;
  }
  std::vector<std::string> entries;
  entries.reserve(environment.size());
  for (const auto& [name, value] : environment) entries.push_back(name + "=" + value);
  return entries;
}

RankSpawn planRank(const proto::RankSpec& spec, const AgentContext& context, const LaunchLimits& limits) {
  const int rank = spec.rank();
  RankSpawn spawn;
  spawn.rank = rank;
  checkString(spec.program(), "the program", limits, rank);
  if (spec.program().empty()) throw RequestError("no program given", rank);
  if (spec.argv_size() == 0 || static_cast<size_t>(spec.argv_size()) > limits.maxArgs) {
    throw RequestError("argv must have 1 to " + std::to_string(limits.maxArgs) + " entries", rank);
  }
  for (const std::string& arg : spec.argv()) checkString(arg, "an argument", limits, rank);
  spawn.argv.assign(spec.argv().begin(), spec.argv().end());
  spawn.environment = mergedEnvironment(spec, context, limits);

  checkString(spec.working_directory(), "the working directory", limits, rank);
  std::error_code error;
  if (!spec.working_directory().empty() && std::filesystem::is_directory(spec.working_directory(), error)) {
    spawn.workingDirectory = spec.working_directory();
  } else if (spec.working_directory_required()) {
    throw RequestError(
        "working directory '" + spec.working_directory() + "' does not exist on host " + context.hostName, rank);
  }  // else: zmpirun's directory is not on this host; run in the agent's, as mpirun falls back to one

  std::string path = "/usr/bin:/bin";
  for (const std::string& entry : spawn.environment) {
    if (entry.starts_with("PATH=")) path = entry.substr(5);
  }
  auto executable = findExecutable(spec.program(), spawn.workingDirectory, path);
  if (!executable) {
    throw RequestError(
        "cannot find executable '" + spec.program() + "' on host " + context.hostName + " (looked in " +
            (spec.program().find('/') != std::string::npos
                 ? "'" + (spawn.workingDirectory.empty() ? std::string(".") : spawn.workingDirectory) + "'"
                 : "PATH") +
            ")",
        rank);
  }
  spawn.executable = *executable;
  return spawn;
}

}  // namespace

void checkTimings(const proto::Launch& launch) {
  const uint32_t interval = launch.heartbeat_interval_ms();
  const uint32_t timeout = launch.heartbeat_timeout_ms();
  if (interval < 50 || interval > 60000) throw RequestError("heartbeat interval must be 50..60000 ms");
  if (timeout < 2 * interval || timeout > 600000) {
    throw RequestError("heartbeat timeout must be at least twice the interval and at most 600000 ms");
  }
  if (launch.kill_grace_ms() > 60000) throw RequestError("kill grace must be at most 60000 ms");
}

std::vector<RankSpawn> planLaunch(const proto::Launch& launch, const AgentContext& context,
                                  const LaunchLimits& limits) {
  if (!validJobId(launch.job_id())) throw RequestError("job id must be 1..64 letters, digits, '-' or '_'");
  checkTimings(launch);
  const std::string& bind = launch.bind_address();
  checkString(bind, "the bind address", limits);
  if (!isLocalAddress(bind)) {
    throw RequestError("the ranks' bind address " + bind.substr(0, 64) + " is not an address of host " +
                       context.hostName + " (zmpirun uses the address it reached the agent at; give the host by a " +
                       "name or address that means this machine)");
  }
  if (launch.ranks_size() == 0 || static_cast<size_t>(launch.ranks_size()) > limits.maxRanks) {
    throw RequestError("a launch must have 1 to " + std::to_string(limits.maxRanks) + " ranks");
  }
  std::set<int> seen;
  std::vector<RankSpawn> plan;
  int stdinRanks = 0;
  for (const proto::RankSpec& spec : launch.ranks()) {
    if (spec.rank() < 0 || spec.rank() >= (1 << 24) || !seen.insert(spec.rank()).second) {
      throw RequestError("rank " + std::to_string(spec.rank()) + " is out of range or given twice");
    }
    if (spec.receives_stdin() && ++stdinRanks > 1) throw RequestError("more than one rank receives stdin");
    plan.push_back(planRank(spec, context, limits));
  }
  return plan;
}

}  // namespace zmpi::runtime
