#include "transport/sched_slice.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace zmpi::transport {
namespace {

// The kernel's struct sched_attr, first version (48 bytes; the utilization clamps that
// follow in later versions stay untouched). Declared here: older C libraries have no
// wrapper, newer ones declare one of their own under the kernel's name.
struct KernelSchedAttr {
  uint32_t size;
  uint32_t policy;
  uint64_t flags;
  int32_t nice;
  uint32_t priority;
  uint64_t runtime;  // for SCHED_OTHER/SCHED_BATCH since 6.12: the slice, ns
  uint64_t deadline;
  uint64_t period;
};
static_assert(sizeof(KernelSchedAttr) == 48);

constexpr uint64_t kResetOnFork = 0x01;  // SCHED_FLAG_RESET_ON_FORK: the only flag kept

}  // namespace

bool requestSchedSlice(std::chrono::microseconds slice) {
#if defined(SYS_sched_setattr) && defined(SYS_sched_getattr)
  if (slice.count() <= 0) return false;
  KernelSchedAttr attr{};
  if (::syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0) != 0) return false;
  if (attr.policy != SCHED_OTHER && attr.policy != SCHED_BATCH) return false;
  attr.size = sizeof attr;
  attr.flags &= kResetOnFork;
  attr.runtime = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(slice).count());
  return ::syscall(SYS_sched_setattr, 0, &attr, 0) == 0;
#else
  (void)slice;
  return false;
#endif
}

std::chrono::microseconds currentSchedSlice() {
#if defined(SYS_sched_getattr)
  KernelSchedAttr attr{};
  if (::syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0) != 0) return {};
  if (attr.policy != SCHED_OTHER && attr.policy != SCHED_BATCH) return {};
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::nanoseconds(attr.runtime));
#else
  return {};
#endif
}

}  // namespace zmpi::transport
