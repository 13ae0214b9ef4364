#pragma once
// zmpid's command line. The secret is deliberately not an option: a command line is
// visible to every user of the machine (ps), so it comes from a file or the environment.
#include <chrono>
#include <optional>
#include <string>

namespace zmpi::runtime {

// --bind auto[:PORT]: the address of this node as a cluster manager's processes publish it
// (transport/node_address.h), for agents started by srun on every node of an allocation.
inline constexpr const char* kNodeBindAddress = "auto";

struct AgentOptions {
  std::string bindHost;  // address (or name resolving to one) of the interface to listen on, or kNodeBindAddress
  int port = 0;          // 0: any free port (printed at start)
  std::string secretFile;
  int maxJobs = 16;
  std::chrono::seconds maxClockSkew{30};
  // Stop (as on SIGTERM) when standard input reaches its end: the agents zmpirun starts with
  // srun end when zmpirun closes srun's stdin, without srun reporting killed tasks.
  bool untilStdinCloses = false;
};

struct AgentParseResult {
  std::optional<AgentOptions> options;
  int exitCode = 0;
};

AgentParseResult parseAgentCommandLine(int argc, const char* const* argv);

// Splits "ADDR:PORT" (PORT optional: the default agent port); false if malformed.
bool splitBindAddress(const std::string& text, std::string& host, int& port);

}  // namespace zmpi::runtime
