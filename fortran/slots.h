#pragma once
// A fixed set of C callbacks, each calling the Fortran procedure in its slot: for the C
// callbacks that carry no context a Fortran procedure could be found by (user ops, error
// handlers), a C function per registered Fortran procedure. Slots are taken under a lock and
// read without one (the C library calls a callback only after its creation returned).
#include <array>
#include <atomic>
#include <mutex>
#include <utility>

namespace zmpi::fortran {

template <typename Fortran, size_t N>
class Slots {
 public:
  static constexpr size_t kSize = N;

  // A free slot now holding f, or -1 when all N are taken.
  int take(Fortran* f) {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < N; ++i) {
      if (slots_[i].load(std::memory_order_relaxed) == nullptr) {
        slots_[i].store(f, std::memory_order_release);
        return static_cast<int>(i);
      }
    }
    return -1;
  }
  void give(int slot) {
    std::lock_guard lock(mutex_);
    slots_[static_cast<size_t>(slot)].store(nullptr, std::memory_order_release);
  }
  Fortran* at(size_t slot) const { return slots_[slot].load(std::memory_order_acquire); }

 private:
  std::mutex mutex_;
  std::array<std::atomic<Fortran*>, N> slots_{};
};

// The C callbacks of a pool: Trampoline<I>::call for I in [0, N), as an array.
template <template <size_t> class Trampoline, size_t... I>
constexpr auto trampolines(std::index_sequence<I...>) {
  return std::array{&Trampoline<I>::call...};
}

}  // namespace zmpi::fortran
