#include "runtime/common/signals.h"

#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <iterator>
#include <system_error>

namespace zmpi::runtime {
namespace {

sigset_t originalMask;
constexpr int kBlocked[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP};
constexpr int kIgnored[] = {SIGPIPE, SIGTTIN, SIGTTOU};
struct sigaction originalActions[std::size(kIgnored)];

}  // namespace

void blockLauncherSignals() {
  sigset_t blocked;
  sigemptyset(&blocked);
  for (int signal : kBlocked) sigaddset(&blocked, signal);
  if (sigprocmask(SIG_BLOCK, &blocked, &originalMask) != 0) {
    throw std::system_error(errno, std::generic_category(), "sigprocmask");
  }
  // SIGINT, SIGTERM and SIGHUP keep their disposition: one the launcher inherited as
  // ignored (nohup; a background job of a script) stays ignored, as for any Unix tool.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  for (size_t i = 0; i < std::size(kIgnored); ++i) sigaction(kIgnored[i], &ignore, &originalActions[i]);
  // An inherited SIG_IGN for SIGCHLD would make the kernel reap children itself and
  // waitid() would never report their status.
  struct sigaction byDefault {};
  byDefault.sa_handler = SIG_DFL;
  sigaction(SIGCHLD, &byDefault, nullptr);
}

void restoreSignalsInChild() {
  // Ignored dispositions survive exec; the launcher's own choices must not leak into ranks.
  for (size_t i = 0; i < std::size(kIgnored); ++i) sigaction(kIgnored[i], &originalActions[i], nullptr);
  sigprocmask(SIG_SETMASK, &originalMask, nullptr);
}

UniqueFd openSignalFd(std::initializer_list<int> signals) {
  sigset_t set;
  sigemptyset(&set);
  for (int signal : signals) sigaddset(&set, signal);
  const int fd = ::signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "signalfd");
  return UniqueFd(fd);
}

int readSignal(int signalFd) {
  signalfd_siginfo info;
  for (;;) {
    const ssize_t got = ::read(signalFd, &info, sizeof info);
    if (got == static_cast<ssize_t>(sizeof info)) return static_cast<int>(info.ssi_signo);
    if (got < 0 && errno == EINTR) continue;
    return 0;
  }
}

}  // namespace zmpi::runtime
