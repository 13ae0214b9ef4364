#pragma once
// zmpirun's command line: mpirun's flags (see --help), parsed with CLI11. Everything from
// the program name on belongs to the program and is passed through untouched.
#include <optional>
#include <string>
#include <vector>

namespace zmpi::runtime {

struct LaunchOptions {
  int np = 0;                      // 0: one rank per slot
  std::vector<std::string> hosts;  // -H values as given ("a:2,b")
  std::string hostfile;
  std::vector<std::string> exports;  // -x values as given ("VAR" or "VAR=value")
  bool oversubscribe = false;
  bool tagOutput = false;
  int timeoutSeconds = 0;        // 0: none
  std::string workingDirectory;  // empty: zmpirun's own
  int stdinRank = 0;             // -1: no rank gets stdin
  bool mapByNode = false;        // --map-by node: consecutive ranks on different hosts
  int agentPort = 7117;          // zmpid's port on hosts whose hostfile entry gives none
  std::string program;
  std::vector<std::string> programArgs;
};

struct ParseResult {
  std::optional<LaunchOptions> options;  // set when zmpirun should run a job
  int exitCode = 0;                      // otherwise: exit with this (help, version, error)
};

// Parses argv. Messages (help, version, errors) are printed here. `environmentTimeout` is
// MPIEXEC_TIMEOUT's value if set, the default for --timeout as with Open MPI.
ParseResult parseCommandLine(int argc, const char* const* argv, const char* environmentTimeout);

// The version line, "zmpirun (zmpi) 0.1.0".
std::string versionText();

}  // namespace zmpi::runtime
