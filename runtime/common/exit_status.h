#pragma once
// How a process ended, in the two forms users meet: shell-style codes (128+signal) for
// zmpirun's own exit status, and words ("signal 9 (Killed)") for messages.
#include <csignal>
#include <string>

namespace zmpi::runtime {

struct ExitStatus {
  bool signaled = false;
  int value = 0;  // the exit code, or the signal number when `signaled`

  bool success() const { return !signaled && value == 0; }
  int shellCode() const { return signaled ? 128 + value : value; }
  // "exit status 3" or "signal 9 (Killed)".
  std::string describe() const;
};

// From waitid()'s report for a child that exited or was killed.
ExitStatus exitStatusFrom(const siginfo_t& info);

// "9 (Killed)".
std::string describeSignal(int signal);

}  // namespace zmpi::runtime
