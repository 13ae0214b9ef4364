#include "transport/futex.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <ctime>

namespace zmpi::transport {
namespace {
long futex(std::atomic<uint32_t>& word, int operation, uint32_t value, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), operation, value, timeout, nullptr, 0);
}
}  // namespace

void futexWait(std::atomic<uint32_t>& word, uint32_t expected, std::chrono::nanoseconds timeout) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout);
  const timespec relative{static_cast<time_t>(seconds.count()), static_cast<long>((timeout - seconds).count())};
  futex(word, FUTEX_WAIT, expected, &relative);
}

void futexWakeAll(std::atomic<uint32_t>& word) { futex(word, FUTEX_WAKE, INT_MAX, nullptr); }

}  // namespace zmpi::transport
