#pragma once
// zmpirun inside a Slurm allocation starts its own agents, as Open MPI's mpirun starts its
// orted: one `srun --ntasks-per-node=1 --kill-on-bad-exit zmpid --bind auto:0` over the
// allocation's nodes, with a secret made for this job alone in srun's environment. Each
// zmpid binds its node's address on a free port and prints it; srun's --label says which
// task (node) printed which. No zmpid must be running beforehand, no secret file shared.
// Several zmpiruns in one allocation each get their own step (--overlap) and ports.
#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "runtime/common/unique_fd.h"
#include "runtime/zmpirun/slurm_allocation.h"

namespace zmpi::runtime {

struct StartedAgent {
  std::string node;
  std::string address;
  int port = 0;
};

// One "listening" line of srun --label's output ("  2: zmpid: listening on tcp://A:P"):
// the task number and where that agent listens, or false when the line is something else.
bool parseAgentLine(const std::string& line, int& task, std::string& address, int& port);

class SlurmAgents {
 public:
  // Starts the agents and waits, at most `timeout`, until every node's has reported. Throws
  // AllocationError naming the nodes that did not, or srun's exit.
  SlurmAgents(const SlurmAllocation& allocation, const std::string& zmpidPath, const std::string& secret,
              std::chrono::milliseconds timeout);
  // Ends the step: closes srun's stdin, which every zmpid watches (--until-stdin-closes);
  // SIGTERM to srun if they have not ended after a grace, SIGKILL after another.
  ~SlurmAgents();
  SlurmAgents(const SlurmAgents&) = delete;
  SlurmAgents& operator=(const SlurmAgents&) = delete;

  const std::vector<StartedAgent>& agents() const { return agents_; }
  pid_t srunPid() const { return srun_; }

 private:
  void stop();

  pid_t srun_ = -1;
  UniqueFd input_;   // srun's stdin, forwarded to every zmpid
  UniqueFd output_;  // srun's stdout, held open until the end: the agents never block on it
  std::vector<StartedAgent> agents_;
};

}  // namespace zmpi::runtime
