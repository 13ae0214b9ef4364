#pragma once
// Happens-before edges ThreadSanitizer cannot see for itself. libzmq is not instrumented:
// when one thread hands a message to it and zmq's I/O thread later runs the message's
// free function, the order between the two is real (zmq's own queues carry it) but
// invisible to TSan. These mark it explicitly; outside TSan builds they compile to nothing.
#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* address);
extern "C" void __tsan_release(void* address);
#endif

namespace zmpi::mpi {

inline void happensBefore([[maybe_unused]] void* address) {
#if defined(__SANITIZE_THREAD__)
  __tsan_release(address);
#endif
}

inline void happensAfter([[maybe_unused]] void* address) {
#if defined(__SANITIZE_THREAD__)
  __tsan_acquire(address);
#endif
}

}  // namespace zmpi::mpi
