#include "runtime/zmpirun/options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "mpi/init/launch_contract.h"
#include "transport/settings.h"

namespace zmpi::runtime {
namespace {

constexpr const char* kFooter = R"(
Usage: zmpirun [options] <program> [program arguments...]

The first argument that is not an option is the program; it and everything after it are
passed to the ranks untouched. Open MPI's single-dash spellings (-np 4, -host a,b,
-hostfile f, -oversubscribe, ...) are accepted too.

Slots: with no -H and no --hostfile (nor OMPI_MCA_orte_default_hostfile or
PRTE_MCA_prte_default_hostfile naming a hostfile, as with Open MPI) the job runs on this
machine, one slot per core, and more ranks than cores still run (they share the cores;
--nooversubscribe refuses them).
Slots given by -H host:N (N defaults to 1) or a hostfile are a limit: more ranks are
refused unless --oversubscribe (or OMPI_MCA_rmaps_base_oversubscribe=1, ZMPI_OVERSUBSCRIBE=1).

zmpirun's stdin goes to rank 0 (--stdin R for another), also when that rank runs on
another host; the other ranks read /dev/null.

Hostfile lines look like Open MPI's:  <host> [slots=N] [max_slots=N] [agent_port=N]   # comment
(or MPICH's <host>:N).

Hosts other than this machine are reached through their zmpid agent (default port 7117);
zmpirun and the agents share a secret: ZMPI_SECRET_FILE (a file only you can read) or
ZMPI_SECRET.
)";

// What CLI11 knows about an option, reduced to what splitting argv needs.
struct OptionShape {
  bool takesValue = false;
};

struct Split {
  std::vector<std::string> launcherArgs;  // normalised to CLI11's spelling
  std::string program;
  std::vector<std::string> programArgs;
  std::string error;
};

// Separates zmpirun's own options from the program and its arguments. CLI11 alone cannot
// do this the mpirun way: it has no single-dash long options (-np) and would take the
// program's own flags for its own. The option table is read from the CLI11 app, so the two
// can never disagree about which options exist or take a value.
Split splitArguments(const CLI::App& app, int argc, const char* const* argv) {
  std::map<std::string, OptionShape> longNames;
  std::map<std::string, OptionShape> shortNames;
  for (const CLI::Option* option : app.get_options()) {
    const OptionShape shape{option->get_expected_max() > 0};  // flags expect no value
    for (const auto& name : option->get_lnames()) longNames[name] = shape;
    for (const auto& name : option->get_snames()) shortNames[name] = shape;
  }
  Split split;
  int i = 1;
  auto takeValue = [&](const std::string& spelled) {
    if (i + 1 >= argc) {
      split.error = "option '" + spelled + "' needs a value";
      return;
    }
    split.launcherArgs.emplace_back(argv[++i]);
  };
  for (; i < argc && split.error.empty(); ++i) {
    const std::string token = argv[i];
    if (token == "--") {
      ++i;
      break;
    }
    if (token.size() < 2 || token[0] != '-') break;  // the program
    const bool doubleDash = token[1] == '-';
    const std::string body = token.substr(doubleDash ? 2 : 1);
    const size_t equals = body.find('=');
    const std::string name = body.substr(0, equals);
    if (auto it = longNames.find(name); it != longNames.end()) {
      split.launcherArgs.push_back("--" + body);
      if (it->second.takesValue && equals == std::string::npos) takeValue(token);
      continue;
    }
    if (!doubleDash) {
      if (auto it = shortNames.find(body.substr(0, 1)); it != shortNames.end()) {
        if (it->second.takesValue) {
          split.launcherArgs.push_back(token);  // "-n4" carries its value; "-n" takes the next
          if (body.size() == 1) takeValue(token);
          continue;
        }
        if (body.size() == 1) {
          split.launcherArgs.push_back(token);
          continue;
        }
      }
    }
    split.error = "unknown option '" + token + "'";
  }
  if (!split.error.empty()) return split;
  if (i < argc) {
    split.program = argv[i];
    split.programArgs.assign(argv + i + 1, argv + argc);
  }
  return split;
}

int fail(const std::string& message) {
  std::fprintf(stderr, "zmpirun: %s\nRun 'zmpirun --help' for the list of options.\n", message.c_str());
  return 1;
}

// An MCA-style boolean from the environment: 1/true/yes/on, 0/false/no/off (any case);
// unset or empty is nullopt. Anything else is an error naming the variable.
std::optional<bool> booleanFromEnvironment(const char* name, std::string& error) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  try {
    return transport::parseBoolean(name, value);
  } catch (const transport::SettingError& refused) {
    error = refused.what();
    return std::nullopt;
  }
}

const transport::IntSetting kAgentPortSetting{"ZMPI_AGENT_PORT",
                                              7117,
                                              {1, 65535},
                                              nullptr,
                                              transport::Level::User,
                                              "port of the zmpid agents on other hosts (zmpirun --agent-port)"};
const transport::BoolSetting kOversubscribeSetting{
    "ZMPI_OVERSUBSCRIBE", false, transport::Level::User,
    "allow more ranks than slots (zmpirun --oversubscribe; also Open MPI's OMPI_MCA_rmaps_base_oversubscribe)"};

}  // namespace

bool oversubscriptionAllowed(const LaunchOptions& options) {
  switch (options.oversubscribe) {
    case Oversubscribe::Allow:
      return true;
    case Oversubscribe::Refuse:
      return false;
    case Oversubscribe::Default:
      break;
  }
  return options.hosts.empty() && options.hostfile.empty();
}

std::string versionText() { return std::string("zmpirun (zmpi) ") + ZMPI_VERSION; }

ParseResult parseCommandLine(int argc, const char* const* argv, const char* environmentTimeout) {
  LaunchOptions options;
  std::string stdinTarget = "0";
  bool allowRoot = false;  // accepted and ignored
  std::string mapBy = "slot";
  std::string bindTo;
  CLI::App app{"zmpirun: start an MPI program on N ranks, with mpirun's options.", "zmpirun"};
  app.footer(kFooter);
  app.set_version_flag("-V,--version", versionText());
  app.add_option("-n,-c,--np,--n", options.np, "Number of ranks to start (default: one per slot)")
      ->check(CLI::PositiveNumber);
  app.add_option("-H,--host", options.hosts, "Hosts to run on, as host[:slots],... (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  app.add_option("--hostfile,--machinefile", options.hostfile,
                 "File of hosts, one '<host> slots=N' per line (default: $OMPI_MCA_orte_default_hostfile, else "
                 "$PRTE_MCA_prte_default_hostfile, unless -H is given)");
  app.add_option("-x", options.exports, "Export VAR (or set VAR=value) in the ranks' environment (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  bool oversubscribe = false;
  bool noOversubscribe = false;
  app.add_flag("--oversubscribe", oversubscribe,
               "Allow more ranks than the slots given by -H or --hostfile (also "
               "OMPI_MCA_rmaps_base_oversubscribe=1 or ZMPI_OVERSUBSCRIBE=1)");
  app.add_flag("--nooversubscribe", noOversubscribe,
               "Refuse more ranks than slots also with no host list, where the slots are this "
               "machine's cores (by default more ranks than cores run)");
  app.add_flag("--tag-output", options.tagOutput, "Prefix each output line with [1,rank]<stdout>: or <stderr>:");
  app.add_option("--timeout", options.timeoutSeconds,
                 "End the job after this many seconds (default: $MPIEXEC_TIMEOUT, else none)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--wdir", options.workingDirectory, "Working directory of the ranks (default: zmpirun's)");
  app.add_option("--stdin", stdinTarget, "Rank that receives zmpirun's stdin, or 'none' (default: 0)");
  app.add_option("--map-by", mapBy,
                 "Place consecutive ranks on one host until its slots are full (slot, default), "
                 "or one per host in turn (node)")
      ->check(CLI::IsMember({"slot", "node"}));
  app.add_option("--bind-to", bindTo,
                 "Bind each rank to a core, hwthread or package (socket), or none (default, as Open MPI: core "
                 "for up to 2 ranks per host, package above, none when a host is oversubscribed); "
                 "core:overload-allowed (likewise the others) binds an oversubscribed host too, "
                 "rank i on core i modulo the cores")
      ->check(CLI::IsMember({"core", "hwthread", "package", "socket", "none", "core:overload-allowed",
                             "hwthread:overload-allowed", "package:overload-allowed", "socket:overload-allowed"}));
  app.add_option("--agent-port", options.agentPort,
                 "Port of the zmpid agents on other hosts (default: $ZMPI_AGENT_PORT, else 7117)")
      ->check(CLI::Range(1, 65535));
  app.add_flag("--encrypt", options.encrypt,
               "Encrypt every link between the ranks (zmq CURVE; also ZMPI_ENCRYPT=1). Without it links are "
               "authenticated with the job's secret but travel in the clear: see README, 'Failure and security "
               "model'");
  app.add_flag("--allow-run-as-root", allowRoot,
               "Accepted for compatibility with Open MPI; zmpirun does not refuse root");

  try {
    if (const std::optional<long long> port = kAgentPortSetting.readIfSet())
      options.agentPort = static_cast<int>(*port);
  } catch (const transport::SettingError& error) {
    return {std::nullopt, fail(error.what())};
  }
  if (environmentTimeout != nullptr && *environmentTimeout != '\0') {
    try {
      options.timeoutSeconds = std::stoi(environmentTimeout);
    } catch (const std::exception&) {
      return {std::nullopt, fail("MPIEXEC_TIMEOUT='" + std::string(environmentTimeout) + "' is not a number")};
    }
  }
  Split split = splitArguments(app, argc, argv);
  if (!split.error.empty()) return {std::nullopt, fail(split.error)};
  std::vector<std::string> reversed(split.launcherArgs.rbegin(), split.launcherArgs.rend());
  try {
    app.parse(reversed);  // CLI11 consumes a reversed vector
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return {std::nullopt, app.exit(error)};  // --help, --version
    return {std::nullopt, fail(error.what())};
  }
  if (split.program.empty()) return {std::nullopt, fail("no program given to run")};
  if (oversubscribe && noOversubscribe) {
    return {std::nullopt, fail("--oversubscribe and --nooversubscribe contradict each other")};
  }
  if (oversubscribe) {
    options.oversubscribe = Oversubscribe::Allow;
  } else if (noOversubscribe) {
    options.oversubscribe = Oversubscribe::Refuse;
  } else {
    // Open MPI's habit of setting MCA parameters in the environment, and zmpi's own name.
    std::string error;
    const std::optional<bool> open = booleanFromEnvironment("OMPI_MCA_rmaps_base_oversubscribe", error);
    if (!error.empty()) return {std::nullopt, fail(error)};
    std::optional<bool> own;
    try {
      own = kOversubscribeSetting.readIfSet();
    } catch (const transport::SettingError& refused) {
      return {std::nullopt, fail(refused.what())};
    }
    if (open.value_or(false) || own.value_or(false)) options.oversubscribe = Oversubscribe::Allow;
  }
  if (stdinTarget == "none") {
    options.stdinRank = -1;
  } else {
    try {
      size_t used = 0;
      options.stdinRank = std::stoi(stdinTarget, &used);
      if (used != stdinTarget.size() || options.stdinRank < 0) throw std::invalid_argument(stdinTarget);
    } catch (const std::exception&) {
      return {std::nullopt, fail("--stdin takes a rank number or 'none', not '" + stdinTarget + "'")};
    }
  }
  if (options.hosts.empty() && options.hostfile.empty()) {
    for (const char* name : kDefaultHostfileVariables) {
      const char* value = std::getenv(name);
      if (value == nullptr || *value == '\0') continue;
      if (std::strcmp(value, "none") != 0) {
        options.hostfile = value;
        options.hostfileVariable = name;
      }
      break;
    }
  }
  options.mapByNode = mapBy == "node";
  // The ranks bind themselves at MPI_Init (mpi/core/cpu_binding.h), on every host.
  if (!bindTo.empty()) options.exports.push_back(std::string(contract::kBindTo.name()) + "=" + bindTo);
  options.program = std::move(split.program);
  options.programArgs = std::move(split.programArgs);
  return {std::move(options), 0};
}

}  // namespace zmpi::runtime
