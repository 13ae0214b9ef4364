#include "transport/payload_pool.h"

#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "transport/wire.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define ZMPI_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define ZMPI_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define ZMPI_POISON(p, n) ((void)(p), (void)(n))
#define ZMPI_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace zmpi::transport {
namespace {

constexpr int kMinShift = std::countr_zero(PayloadPool::kMinBytes);
constexpr int kClasses = std::countr_zero(PayloadPool::kMaxBytes) - kMinShift + 1;

std::size_t classBytes(int sizeClass) { return PayloadPool::kMinBytes << sizeClass; }

// Buffers are taken on the thread that receives and given back on the one that consumes
// the message (the program's): a mutex per class, held for a push or a pop.
struct SizeClass {
  std::size_t bytes = 0;
  std::mutex mutex;
  std::vector<void*> free;
};

struct Classes {
  std::array<SizeClass, kClasses> classes;
  Classes() {
    for (int c = 0; c < kClasses; ++c) {
      SizeClass& sizeClass = classes[static_cast<std::size_t>(c)];
      sizeClass.bytes = classBytes(c);
      sizeClass.free.reserve(PayloadPool::kCachedBytesPerClass / sizeClass.bytes);
    }
  }
};

// Never destroyed: a message may be released after static destructors have run (a
// program's buffer freed at exit). What it caches stays reachable, so leak checkers
// do not count it.
Classes& pool() {
  static Classes* classes = new Classes;
  return *classes;
}

int classFor(std::size_t bytes) {
  return std::bit_width((bytes - 1) >> kMinShift);  // the smallest class that holds them
}

// `hint` is the buffer's SizeClass.
void giveBack(void* data, void* hint) {
  SizeClass& sizeClass = *static_cast<SizeClass*>(hint);
  {
    std::lock_guard lock(sizeClass.mutex);
    if (sizeClass.free.size() < sizeClass.free.capacity()) {
      ZMPI_POISON(data, sizeClass.bytes);
      sizeClass.free.push_back(data);
      return;
    }
  }
  std::free(data);
}

}  // namespace

zmq::message_t PayloadPool::take(std::size_t bytes) {
  if (bytes < kMinBytes || bytes > kMaxBytes) return zmq::message_t(bytes);
  SizeClass& sizeClass = pool().classes[static_cast<std::size_t>(classFor(bytes))];
  void* data = nullptr;
  {
    std::lock_guard lock(sizeClass.mutex);
    if (!sizeClass.free.empty()) {
      data = sizeClass.free.back();
      sizeClass.free.pop_back();
    }
  }
  if (data != nullptr) {
    ZMPI_UNPOISON(data, sizeClass.bytes);
  } else {
    data = std::malloc(sizeClass.bytes);
    if (data == nullptr) throw std::bad_alloc();
  }
  return makeZeroCopyPayload(data, bytes, giveBack, &sizeClass);
}

zmq::message_t PayloadPool::copyOf(const void* data, std::size_t bytes) {
  zmq::message_t message = take(bytes);
  if (bytes > 0) std::memcpy(message.data(), data, bytes);
  return message;
}

std::size_t PayloadPool::cachedBuffers() {
  std::size_t total = 0;
  for (SizeClass& sizeClass : pool().classes) {
    std::lock_guard lock(sizeClass.mutex);
    total += sizeClass.free.size();
  }
  return total;
}

}  // namespace zmpi::transport
