#pragma once
// Turns a signed Launch into the processes to start, checking every field first: the
// request is authenticated, but a bug (or a launcher of another version) must still not
// make the agent allocate without bound, exec a truncated string, or start half a job.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "agent_protocol.pb.h"  // generated from runtime/common/agent_protocol.proto
#include "runtime/common/rank_group.h"

namespace zmpi::runtime {

// A request the agent will not run; what() is sent back to the launcher.
class RequestError : public std::runtime_error {
 public:
  RequestError(const std::string& what, int rank = -1) : std::runtime_error(what), rank_(rank) {}
  int rank() const { return rank_; }

 private:
  int rank_;
};

struct LaunchLimits {
  size_t maxRanks = 4096;
  size_t maxArgs = 4096;
  size_t maxEnvironment = 4096;
  size_t maxStringBytes = 128 * 1024;
};

// What the agent contributes to every rank it starts.
struct AgentContext {
  std::map<std::string, std::string> environment;  // the agent's own, secrets removed
  std::string libDir;                              // zmpi's lib dir on this host; first on LD_LIBRARY_PATH
  std::string hostName;                            // for messages
};

// Checks the Launch's fields (sizes, names, ranges, at most one rank receiving stdin, the
// bind address being one of this host's) and resolves each rank: environment merged over the agent's, program found
// with that PATH, working directory checked. Throws RequestError naming the field or rank.
std::vector<RankSpawn> planLaunch(const proto::Launch& launch, const AgentContext& context,
                                  const LaunchLimits& limits = {});

// Checks the heartbeat and kill settings of a Launch (ranges) on their own.
void checkTimings(const proto::Launch& launch);

}  // namespace zmpi::runtime
