#pragma once
// Catch2 is not thread-safe: ranks (threads) that check at the same time take turns.
#include <catch2/catch.hpp>
#include <mutex>

namespace zmpi::mpi::testing {
inline std::mutex lockedCheckMutex;
}  // namespace zmpi::mpi::testing

#define LOCKED_CHECK(...)                                                   \
  do {                                                                      \
    std::lock_guard lockedCheckLock_(zmpi::mpi::testing::lockedCheckMutex); \
    CHECK(__VA_ARGS__);                                                     \
  } while (0)
