#pragma once
// ThreadSanitizer annotations for what libzmq orders between threads. libzmq is not
// instrumented (Debian's build), and the TSan runs ignore every memory access its
// interceptors see from inside it (called_from_lib:libzmq.so in tests/tsan.supp: building
// a suppressed report for each word libzmq copies cost tens of seconds per MiB). So TSan
// sees neither zmq's copies nor the lock-free queues that order a message's sender before
// its receiver, or a zero-copy buffer's sender before the free function zmq calls (maybe
// on its I/O thread). These calls state that order: every send releases and every
// successful receive (or poll that saw an event) acquires one address that stands for the
// process's zmq context (one per process, transport rule 1); a zero-copy free function
// acquires it before touching anything and releases it when done. That is coarser than zmq's per-pipe
// order (a receive is ordered after every earlier send of the process, not only its own
// message's), never finer, so it adds no false report and hides only races between two
// threads that also talk through zmq. Outside TSan builds everything here compiles to the
// plain zmq call.
#include <chrono>
#include <cstddef>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#if defined(__SANITIZE_THREAD__)
#define ZMPI_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ZMPI_TSAN 1
#endif
#endif

#if defined(ZMPI_TSAN)
extern "C" void __tsan_acquire(void* address);
extern "C" void __tsan_release(void* address);
#endif

namespace zmpi::transport::tsan {

// A happens-before edge TSan cannot see: release(a) in one thread, then acquire(a) in
// another orders everything before the release before everything after the acquire.
inline void release([[maybe_unused]] void* address) {
#if defined(ZMPI_TSAN)
  __tsan_release(address);
#endif
}
inline void acquire([[maybe_unused]] void* address) {
#if defined(ZMPI_TSAN)
  __tsan_acquire(address);
#endif
}

#if defined(ZMPI_TSAN)
inline char zmqContextToken;  // the address standing for the context's queues
#endif

// Before a message or a zero-copy buffer is handed to zmq.
inline void beforeSend() {
#if defined(ZMPI_TSAN)
  release(&zmqContextToken);
#endif
}
// After zmq handed a message over (a receive, a poll that saw an event).
inline void afterReceive() {
#if defined(ZMPI_TSAN)
  acquire(&zmqContextToken);
#endif
}

// Brackets a zero-copy free function, which zmq calls on its I/O thread (or on the thread
// that drops the last reference): what the sender did before handing the buffer over is
// ordered before it, and what it does (complete a request, wake its waiter) is ordered
// before zmq's later hand-overs, as zmq's single I/O thread orders them.
class FreeFunctionScope {
 public:
  FreeFunctionScope() { afterReceive(); }
  ~FreeFunctionScope() { beforeSend(); }
  FreeFunctionScope(const FreeFunctionScope&) = delete;
  FreeFunctionScope& operator=(const FreeFunctionScope&) = delete;
};

}  // namespace zmpi::transport::tsan

namespace zmpi::transport {

// zmpi's zmq calls, each with its annotation; use these instead of the socket's own.
inline zmq::send_result_t zmqSend(zmq::socket_ref socket, zmq::message_t& message, zmq::send_flags flags) {
  tsan::beforeSend();
  return socket.send(message, flags);
}
inline zmq::send_result_t zmqSend(zmq::socket_ref socket, zmq::const_buffer buffer, zmq::send_flags flags) {
  tsan::beforeSend();
  return socket.send(buffer, flags);
}
inline zmq::recv_result_t zmqRecv(zmq::socket_ref socket, zmq::message_t& message, zmq::recv_flags flags) {
  auto received = socket.recv(message, flags);
  if (received) tsan::afterReceive();
  return received;
}
template <class Out>
zmq::recv_result_t zmqRecvMultipart(zmq::socket_ref socket, Out out, zmq::recv_flags flags = zmq::recv_flags::none) {
  auto received = zmq::recv_multipart(socket, out, flags);
  if (received) tsan::afterReceive();
  return received;
}
inline int zmqPoll(zmq::pollitem_t* items, std::size_t count, std::chrono::milliseconds timeout) {
  const int ready = zmq::poll(items, count, timeout);
  if (ready > 0) tsan::afterReceive();
  return ready;
}

}  // namespace zmpi::transport
