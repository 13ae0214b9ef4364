#include "runtime/common/orphans.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

namespace zmpi::runtime {

void becomeSubreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }

std::vector<pid_t> listChildren() {
  // /proc/self/task/*/children needs CONFIG_PROC_CHILDREN; every pid's stat always works.
  std::vector<pid_t> children;
  const pid_t self = ::getpid();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so parse after
    // the last ')'.
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long parent = 0;
    if (std::sscanf(line.c_str() + close + 1, " %c %ld", &state, &parent) == 2 && parent == self) {
      children.push_back(static_cast<pid_t>(std::stol(name)));
    }
  }
  return children;
}

int endAdoptedOrphans() {
  int ended = 0;
  // Each round ends one generation; a bound keeps a fork bomb from holding us forever.
  for (int round = 0; round < 64; ++round) {
    const std::vector<pid_t> children = listChildren();
    if (children.empty()) break;
    for (pid_t child : children) ::kill(child, SIGKILL);
    for (pid_t child : children) {
      if (::waitpid(child, nullptr, 0) == child) ++ended;
    }
  }
  return ended;
}

}  // namespace zmpi::runtime
