#pragma once
// The calling thread's scheduler time slice (Linux >= 6.12, EEVDF: sched_setattr's
// sched_runtime names the slice of a SCHED_OTHER/SCHED_BATCH thread, 100 us - 100 ms; the
// default is ~0.7 ms times 1 + log2(CPUs)). The slice is how long a thread runs in one turn
// when others want its CPU, not its share: a short one gets a woken thread on the CPU sooner,
// a long one lets it finish a burst of work (a whole payload) before a busy process takes
// its turn. The bulk I/O thread can ask for a long one (bulk_link.h, slice_).
#include <chrono>

namespace zmpi::transport {

// Asks for a slice of `slice` for the calling thread, keeping its policy and nice value
// (raw system calls: no C library wrapper needed, nothing new to link).
// Returns whether the kernel took the request; false, with nothing changed, where there is
// no sched_setattr or the thread is not SCHED_OTHER/SCHED_BATCH. Kernels before 6.12 take
// the request and ignore the slice (their scheduler has no per-thread slice): harmless.
bool requestSchedSlice(std::chrono::microseconds slice);

// The calling thread's slice as the kernel reports it; zero where it reports none (kernels
// before 6.12, other policies, no sched_getattr).
std::chrono::microseconds currentSchedSlice();

}  // namespace zmpi::transport
