// zmpirun's command line: mpirun's spellings, and the program's arguments untouched.
#include "runtime/zmpirun/options.h"

#include <catch2/catch.hpp>
#include <cstdlib>

using namespace zmpi::runtime;

namespace {
ParseResult parseArgs(std::vector<const char*> args, const char* timeout = nullptr) {
  args.insert(args.begin(), "zmpirun");
  return parseCommandLine(static_cast<int>(args.size()), args.data(), timeout);
}
}  // namespace

TEST_CASE("options: Open MPI's single-dash spellings") {
  const auto result = parseArgs({"-np", "4", "-oversubscribe", "-tag-output", "-host", "a:2,b", "prog"});
  REQUIRE(result.options);
  CHECK(result.options->np == 4);
  CHECK(result.options->oversubscribe == Oversubscribe::Allow);
  CHECK(result.options->tagOutput);
  CHECK(result.options->hosts == std::vector<std::string>{"a:2,b"});
  CHECK(result.options->program == "prog");
}

TEST_CASE("options: --encrypt asks for encrypted rank links, off by default") {
  CHECK_FALSE(parseArgs({"-np", "2", "p"}).options->encrypt);
  CHECK(parseArgs({"--encrypt", "-np", "2", "p"}).options->encrypt);
  CHECK(parseArgs({"-encrypt", "p"}).options->encrypt);
  CHECK_FALSE(parseArgs({"p", "--encrypt"}).options->encrypt);  // the program's own argument
}

TEST_CASE("options: short, long, attached and = forms") {
  CHECK(parseArgs({"-n", "3", "p"}).options->np == 3);
  CHECK(parseArgs({"-n3", "p"}).options->np == 3);
  CHECK(parseArgs({"--np=5", "p"}).options->np == 5);
  CHECK(parseArgs({"-c", "2", "p"}).options->np == 2);
  const auto result = parseArgs({"-x", "A=1", "-x", "HOME", "-H", "a", "-H", "b", "--timeout", "7", "p"});
  REQUIRE(result.options);
  CHECK(result.options->exports == std::vector<std::string>{"A=1", "HOME"});
  CHECK(result.options->hosts == std::vector<std::string>{"a", "b"});
  CHECK(result.options->timeoutSeconds == 7);
}

TEST_CASE("options: everything from the program on is the program's") {
  const auto result = parseArgs({"-np", "2", "./prog", "-np", "9", "--foo", "-x", "--", "a b"});
  REQUIRE(result.options);
  CHECK(result.options->np == 2);
  CHECK(result.options->program == "./prog");
  CHECK(result.options->programArgs == std::vector<std::string>{"-np", "9", "--foo", "-x", "--", "a b"});
  const auto dashed = parseArgs({"-np", "1", "--", "-weird-name", "x"});
  REQUIRE(dashed.options);
  CHECK(dashed.options->program == "-weird-name");
}

TEST_CASE("options: errors exit non-zero without running anything") {
  CHECK_FALSE(parseArgs({"--bogus", "p"}).options);
  CHECK(parseArgs({"--bogus", "p"}).exitCode != 0);
  CHECK(parseArgs({"-Q", "p"}).exitCode != 0);
  CHECK(parseArgs({"-np", "0", "p"}).exitCode != 0);
  CHECK(parseArgs({"-np", "many", "p"}).exitCode != 0);
  CHECK(parseArgs({"-np"}).exitCode != 0);
  CHECK(parseArgs({"-np", "2"}).exitCode != 0);  // no program
  CHECK(parseArgs({"--stdin", "x", "p"}).exitCode != 0);
}

TEST_CASE("options: --version and --help succeed without a program") {
  const auto version = parseArgs({"--version"});
  CHECK_FALSE(version.options);
  CHECK(version.exitCode == 0);
  CHECK(parseArgs({"-h"}).exitCode == 0);
}

TEST_CASE("options: MPIEXEC_TIMEOUT is the default time limit; --timeout wins") {
  CHECK(parseArgs({"p"}, "30").options->timeoutSeconds == 30);
  CHECK(parseArgs({"--timeout", "5", "p"}, "30").options->timeoutSeconds == 5);
  CHECK(parseArgs({"p"}, "soon").exitCode != 0);
}

TEST_CASE("options: --stdin picks the rank or none") {
  CHECK(parseArgs({"p"}).options->stdinRank == 0);
  CHECK(parseArgs({"--stdin", "2", "p"}).options->stdinRank == 2);
  CHECK(parseArgs({"--stdin", "none", "p"}).options->stdinRank == -1);
}

namespace {
// Sets an environment variable for one scope.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~ScopedVariable() { ::unsetenv(name_); }

 private:
  const char* name_;
};
}  // namespace

TEST_CASE("options: oversubscription is allowed on the implicit local host only") {
  const auto implicit = parseArgs({"-np", "64", "p"});
  REQUIRE(implicit.options);
  CHECK(implicit.options->oversubscribe == Oversubscribe::Default);
  CHECK(oversubscriptionAllowed(*implicit.options));
  CHECK_FALSE(oversubscriptionAllowed(*parseArgs({"-np", "4", "-H", "localhost:2", "p"}).options));
  CHECK_FALSE(oversubscriptionAllowed(*parseArgs({"-np", "4", "-H", "localhost", "p"}).options));
  CHECK_FALSE(oversubscriptionAllowed(*parseArgs({"-np", "4", "--hostfile", "f", "p"}).options));
  CHECK(oversubscriptionAllowed(*parseArgs({"-np", "4", "-H", "localhost:2", "--oversubscribe", "p"}).options));
  CHECK(oversubscriptionAllowed(*parseArgs({"-np", "4", "--hostfile", "f", "-oversubscribe", "p"}).options));
}

TEST_CASE("options: --nooversubscribe makes the implicit local host strict") {
  const auto strict = parseArgs({"-np", "4", "--nooversubscribe", "p"});
  REQUIRE(strict.options);
  CHECK(strict.options->oversubscribe == Oversubscribe::Refuse);
  CHECK_FALSE(oversubscriptionAllowed(*strict.options));
  CHECK_FALSE(oversubscriptionAllowed(*parseArgs({"-nooversubscribe", "-H", "a:2", "p"}).options));
  CHECK(parseArgs({"--oversubscribe", "--nooversubscribe", "p"}).exitCode != 0);
}

TEST_CASE("options: OMPI_MCA_rmaps_base_oversubscribe and ZMPI_OVERSUBSCRIBE act as --oversubscribe") {
  for (const char* name : {"OMPI_MCA_rmaps_base_oversubscribe", "ZMPI_OVERSUBSCRIBE"}) {
    CAPTURE(name);
    {
      ScopedVariable set(name, "1");
      const auto result = parseArgs({"-H", "localhost:2", "-np", "4", "p"});
      REQUIRE(result.options);
      CHECK(result.options->oversubscribe == Oversubscribe::Allow);
      CHECK(oversubscriptionAllowed(*result.options));
      // The command line wins over the environment.
      CHECK_FALSE(oversubscriptionAllowed(*parseArgs({"--nooversubscribe", "-np", "4", "p"}).options));
    }
    {
      ScopedVariable set(name, "true");
      CHECK(parseArgs({"-H", "a", "p"}).options->oversubscribe == Oversubscribe::Allow);
    }
    {
      ScopedVariable set(name, "0");
      CHECK(parseArgs({"-H", "a", "p"}).options->oversubscribe == Oversubscribe::Default);
    }
    {
      ScopedVariable set(name, "maybe");
      CHECK(parseArgs({"-H", "a", "p"}).exitCode != 0);
    }
  }
}

TEST_CASE("options: ZMPI_AGENT_PORT must be a whole port number") {
  for (const char* bad : {"x", "80x", "0", "65536", "-1"}) {
    INFO(bad);
    ScopedVariable set("ZMPI_AGENT_PORT", bad);
    CHECK(parseArgs({"-np", "1", "p"}).exitCode != 0);
  }
  ScopedVariable set("ZMPI_AGENT_PORT", "7200");
  const ParseResult good = parseArgs({"-np", "1", "p"});
  REQUIRE(good.options);
  CHECK(good.options->agentPort == 7200);
}

TEST_CASE("options: OMPI_MCA_orte_default_hostfile names the hostfile when no -H or --hostfile does") {
  {
    ScopedVariable set("OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile");
    const auto fromEnvironment = parseArgs({"-np", "4", "p"});
    REQUIRE(fromEnvironment.options);
    CHECK(fromEnvironment.options->hostfile == "/etc/mpi/hostfile");
    CHECK(fromEnvironment.options->hostfileVariable == "OMPI_MCA_orte_default_hostfile");
    // Its slots are a limit, as those of any hostfile.
    CHECK_FALSE(oversubscriptionAllowed(*fromEnvironment.options));
    // The command line wins, as with Open MPI.
    const auto hostfile = parseArgs({"--hostfile", "mine", "p"});
    CHECK(hostfile.options->hostfile == "mine");
    CHECK(hostfile.options->hostfileVariable.empty());
    const auto hosts = parseArgs({"-H", "a:2", "p"});
    CHECK(hosts.options->hostfile.empty());
    CHECK(oversubscriptionAllowed(*parseArgs({"-np", "4", "--oversubscribe", "p"}).options));
  }
  CHECK(parseArgs({"p"}).options->hostfile.empty());
}

TEST_CASE("options: PRTE_MCA_prte_default_hostfile (Open MPI 5) comes second; 'none' means none") {
  {
    ScopedVariable prte("PRTE_MCA_prte_default_hostfile", "/prte/hosts");
    CHECK(parseArgs({"p"}).options->hostfile == "/prte/hosts");
    CHECK(parseArgs({"p"}).options->hostfileVariable == "PRTE_MCA_prte_default_hostfile");
    {
      ScopedVariable ompi("OMPI_MCA_orte_default_hostfile", "/ompi/hosts");
      CHECK(parseArgs({"p"}).options->hostfile == "/ompi/hosts");
    }
    {
      ScopedVariable ompi("OMPI_MCA_orte_default_hostfile", "none");  // the first one set decides
      const auto none = parseArgs({"-np", "8", "p"});
      CHECK(none.options->hostfile.empty());
      CHECK(oversubscriptionAllowed(*none.options));
    }
    {
      ScopedVariable empty("OMPI_MCA_orte_default_hostfile", "");  // empty is unset
      CHECK(parseArgs({"p"}).options->hostfile == "/prte/hosts");
    }
  }
  ScopedVariable prte("PRTE_MCA_prte_default_hostfile", "none");
  CHECK(parseArgs({"p"}).options->hostfile.empty());
}
