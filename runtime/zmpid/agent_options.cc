#include "runtime/zmpid/agent_options.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "runtime/common/agent_codec.h"

namespace zmpi::runtime {

bool splitBindAddress(const std::string& text, std::string& host, int& port) {
  const size_t colon = text.rfind(':');
  host = text.substr(0, colon);
  port = kDefaultAgentPort;
  if (colon != std::string::npos) {
    const std::string digits = text.substr(colon + 1);
    if (digits.empty() || digits.size() > 5 || digits.find_first_not_of("0123456789") != std::string::npos) {
      return false;
    }
    port = std::stoi(digits);
    if (port > 65535) return false;
  }
  return !host.empty() && host != "*";
}

AgentParseResult parseAgentCommandLine(int argc, const char* const* argv) {
  AgentOptions options;
  std::string bind;
  int skewSeconds = static_cast<int>(options.maxClockSkew.count());
  CLI::App app{
      "zmpid: the zmpi host agent. Starts the ranks a zmpirun on another host asks for, when the request\n"
      "proves knowledge of the shared secret.",
      "zmpid"};
  app.footer(
      "\nThe secret comes from --secret-file, else the file named by $ZMPI_SECRET_FILE, else $ZMPI_SECRET;\n"
      "never from the command line. The file must not be accessible by group or others (chmod 600).\n"
      "Without a secret zmpid refuses every launch. ZMPI_LOG_LEVEL=info logs each job.");
  app.set_version_flag("-V,--version", std::string("zmpid (zmpi) ") + ZMPI_VERSION);
  app.add_option("--bind", bind,
                 "ADDR[:PORT] to listen on (default port 7117; port 0 picks a free one); ADDR 'auto': this node's "
                 "address (the one its name resolves to, else its first non-loopback interface's)")
      ->required();
  app.add_option("--secret-file", options.secretFile, "File holding the shared secret (mode 600)");
  app.add_option("--max-jobs", options.maxJobs, "Jobs run at once; more are refused")->check(CLI::Range(1, 1024));
  app.add_flag("--until-stdin-closes", options.untilStdinCloses,
               "Stop, ending every job, when standard input reaches its end (agents started by srun)");
  app.add_option("--max-clock-skew", skewSeconds, "Seconds a launch request's timestamp may differ from this clock")
      ->check(CLI::Range(1, 3600));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return {std::nullopt, app.exit(error)};
  }
  if (!splitBindAddress(bind, options.bindHost, options.port)) {
    std::fprintf(stderr, "zmpid: --bind '%s': expected ADDR[:PORT] with a specific address (not '*')\n", bind.c_str());
    return {std::nullopt, 1};
  }
  options.maxClockSkew = std::chrono::seconds(skewSeconds);
  return {options, 0};
}

}  // namespace zmpi::runtime
