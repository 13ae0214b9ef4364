#pragma once
// Starting one rank process: fork + exec with everything a launched rank needs set up
// between the two (its own process group, death with the launcher, its stdio), and exec
// failures reported back to the parent as errors instead of as a mysterious exit 127.
#include <sys/types.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace zmpi::runtime {

struct SpawnRequest {
  std::string path;                      // what execve() runs (already resolved, see findExecutable)
  std::vector<std::string> argv;         // argv[0] included
  std::vector<std::string> environment;  // "NAME=value" entries, the child's whole environment
  std::string workingDirectory;          // empty: the launcher's own
  int stdinFd = -1;                      // each dup2'ed onto 0/1/2 in the child; -1 keeps the launcher's
  int stdoutFd = -1;
  int stderrFd = -1;
  pid_t processGroup = 0;  // 0: the child leads a new group; else joins this one
};

class SpawnError : public std::runtime_error {
 public:
  SpawnError(const std::string& what, int error) : std::runtime_error(what), error_(error) {}
  int error() const { return error_; }  // errno of the failed step

 private:
  int error_;
};

// Forks and execs `request`. The child gets SIGKILL when the launcher dies (prctl
// PR_SET_PDEATHSIG, with the getppid() race closed), the launcher's original signal mask,
// and no descriptor but 0/1/2. Returns the child's pid once exec has succeeded; throws
// SpawnError naming the step (chdir, exec) and the reason otherwise. Call it from the
// thread that lives as long as the job: the death signal follows the forking thread.
pid_t spawnProcess(const SpawnRequest& request);

// Resolves `program` as execvp() would, but in the launcher where errors can be reported:
// a name with a '/' is taken as a path (relative to `workingDirectory` if one is given),
// a bare name is looked up in `searchPath`. Returns nullopt if nothing executable is found.
std::optional<std::string> findExecutable(const std::string& program, const std::string& workingDirectory,
                                          const std::string& searchPath);

}  // namespace zmpi::runtime
