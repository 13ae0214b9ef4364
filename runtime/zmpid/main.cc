// zmpid: the zmpi host agent. See agent.h for what it does and whom it trusts,
// agent_options.cc for its command line, zmpid.service for running it under systemd.
#include <cstdio>
#include <exception>

#include "runtime/common/signals.h"
#include "runtime/common/unique_fd.h"
#include "runtime/zmpid/agent.h"
#include "transport/context.h"
#include "transport/log.h"

int main(int argc, char** argv) {
  using namespace zmpi::runtime;
  ensureStandardDescriptors();
  // Before anything starts a thread (zmq, spdlog): SIGCHLD and the stop signals are read
  // from a signalfd, which needs them blocked in every thread.
  blockLauncherSignals();
  const AgentParseResult parsed = parseAgentCommandLine(argc, argv);
  if (!parsed.options) return parsed.exitCode;
  std::optional<Secret> secret;
  try {
    secret = loadSecret(parsed.options->secretFile);
  } catch (const SecretError& error) {
    std::fprintf(stderr, "zmpid: %s\n", error.what());
    return 1;
  }
  const bool hasSecret = secret.has_value();
  zmpi::log::setRankTag("zmpid");
  int status = 1;
  try {
    zmpi::transport::ContextOwner context;
    {
      Agent agent(*parsed.options, std::move(secret));
      // Scripts wait for this line (it carries the port when --bind asked for port 0).
      std::printf("zmpid: listening on %s%s\n", agent.endpoint().c_str(),
                  hasSecret ? "" : " (no secret configured: every launch will be refused)");
      std::fflush(stdout);
      status = agent.run();
    }
    context.close();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "zmpid: %s\n", error.what());
    return 1;
  }
  return status;
}
