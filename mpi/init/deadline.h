#pragma once
// A manager's call that may block for good (a fence whose peers never come, a server that
// accepts but never answers) run so that the rank gives up in time: on a thread of its
// own, waited for at most `timeout`. The thread is not joined when the time runs out: it
// stays blocked in the manager's library, and the rank fails MPI_Init, which ends it.
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

namespace zmpi::mpi {

// `work`'s result, its exception rethrown, or nullopt when it did not finish in time.
template <typename Work>
auto runWithDeadline(std::chrono::milliseconds timeout, Work work) -> std::optional<decltype(work())> {
  auto task = std::make_shared<std::packaged_task<decltype(work())()>>(std::move(work));
  auto result = task->get_future();
  std::thread([task] { (*task)(); }).detach();
  if (result.wait_for(timeout) != std::future_status::ready) return std::nullopt;
  return result.get();
}

}  // namespace zmpi::mpi
