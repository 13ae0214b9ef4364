#pragma once
// zmpid's command line. The secret is deliberately not an option: a command line is
// visible to every user of the machine (ps), so it comes from a file or the environment.
#include <chrono>
#include <optional>
#include <string>

namespace zmpi::runtime {

struct AgentOptions {
  std::string bindHost;  // address (or name resolving to one) of the interface to listen on
  int port = 0;          // 0: any free port (printed at start)
  std::string secretFile;
  int maxJobs = 16;
  std::chrono::seconds maxClockSkew{30};
};

struct AgentParseResult {
  std::optional<AgentOptions> options;
  int exitCode = 0;
};

AgentParseResult parseAgentCommandLine(int argc, const char* const* argv);

// Splits "ADDR:PORT" (PORT optional: the default agent port); false if malformed.
bool splitBindAddress(const std::string& text, std::string& host, int& port);

}  // namespace zmpi::runtime
