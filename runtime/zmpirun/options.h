#pragma once
// zmpirun's command line: mpirun's flags (see --help), parsed with CLI11. Everything from
// the program name on belongs to the program and is passed through untouched.
#include <optional>
#include <string>
#include <vector>

namespace zmpi::runtime {

// What the user said about running more ranks than slots.
enum class Oversubscribe {
  Default,  // allowed on the implicit local host (no -H, no --hostfile), refused on explicit slots
  Allow,    // --oversubscribe, OMPI_MCA_rmaps_base_oversubscribe=1, ZMPI_OVERSUBSCRIBE=1
  Refuse,   // --nooversubscribe: refused everywhere, the implicit local host included
};

struct LaunchOptions {
  int np = 0;                      // 0: one rank per slot
  std::vector<std::string> hosts;  // -H values as given ("a:2,b")
  std::string hostfile;
  std::string hostfileVariable;      // the variable that named `hostfile` when no -H/--hostfile did, for messages
  std::vector<std::string> exports;  // -x values as given ("VAR" or "VAR=value")
  Oversubscribe oversubscribe = Oversubscribe::Default;
  bool tagOutput = false;
  bool encrypt = false;          // --encrypt: CURVE on every rank link (also ZMPI_ENCRYPT=1)
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

// Whether more ranks than slots may run. With no host information the local host's slots
// are its cores, but more ranks than that run anyway (as MPICH's mpiexec does: `zmpirun
// -np 4 ./prog` just works on a 2-core machine); slots given by -H or a hostfile are a
// limit (Open MPI's rule) unless --oversubscribe. --nooversubscribe makes both strict.
bool oversubscriptionAllowed(const LaunchOptions& options);

// Open MPI's default hostfile, as schedulers and the Kubeflow MPI Operator set it in the
// environment (OMPI_MCA_orte_default_hostfile=/etc/mpi/hostfile): Open MPI 4's MCA
// variable, then Open MPI 5's (PRRTE's). The first one set decides; "none" means no
// default hostfile, as with Open MPI. zmpirun reads it only when neither -H nor --hostfile
// is given: those replace it (Open MPI would filter the default hostfile's hosts by them).
inline constexpr const char* kDefaultHostfileVariables[] = {"OMPI_MCA_orte_default_hostfile",
                                                            "PRTE_MCA_prte_default_hostfile"};

// The version line, "zmpirun (zmpi) 0.1.0".
std::string versionText();

}  // namespace zmpi::runtime
