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
    // NOLINTNEXTLINE(cert-err34-c): /proc/<pid>/stat from the kernel, the match count is checked
    if (std::sscanf(line.c_str() + close + 1, " %c %ld", &state, &parent) == 2 && parent == self) {
      children.push_back(static_cast<pid_t>(std::stol(name)));
    }
  }
  return children;
}

int endAdoptedOrphans() {
  return endAdoptedOrphans([](pid_t) { return true; });
}

int endAdoptedOrphans(const std::function<bool(pid_t)>& belongs) {
  int ended = 0;
  // Each round ends one generation; a bound keeps a fork bomb from holding us forever.
  for (int round = 0; round < 64; ++round) {
    std::vector<pid_t> children = listChildren();
    std::erase_if(children, [&](pid_t child) { return !belongs(child); });
    if (children.empty()) break;
    for (pid_t child : children) ::kill(child, SIGKILL);
    for (pid_t child : children) {
      if (::waitpid(child, nullptr, 0) == child) ++ended;
    }
  }
  return ended;
}

bool environmentHas(pid_t pid, const std::string& entry) {
  std::ifstream environ("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  std::string item;
  while (std::getline(environ, item, '\0')) {
    if (item == entry) return true;
  }
  return false;
}

int reapStrayChildren(const std::set<pid_t>& keep) {
  int reaped = 0;
  for (pid_t child : listChildren()) {
    if (!keep.contains(child) && ::waitpid(child, nullptr, WNOHANG) == child) ++reaped;
  }
  return reaped;
}

}  // namespace zmpi::runtime
