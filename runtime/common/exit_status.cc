#include "runtime/common/exit_status.h"

#include <cstring>

namespace zmpi::runtime {

std::string describeSignal(int signal) {
  const char* name = ::strsignal(signal);
  return std::to_string(signal) + " (" + (name != nullptr ? name : "unknown signal") + ")";
}

std::string ExitStatus::describe() const {
  if (signaled) return "signal " + describeSignal(value);
  return "exit status " + std::to_string(value);
}

ExitStatus exitStatusFrom(const siginfo_t& info) {
  if (info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED) return ExitStatus{true, info.si_status};
  return ExitStatus{false, info.si_status};
}

}  // namespace zmpi::runtime
