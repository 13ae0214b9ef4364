#include "mpi/coll/progress_thread.h"

#include "transport/log.h"

namespace zmpi::mpi::coll {

CollectiveProgress& CollectiveProgress::instance() {
  static CollectiveProgress progress;
  return progress;
}

CollectiveProgress::CollectiveProgress() : thread_([this] { loop(); }) {}

CollectiveProgress::~CollectiveProgress() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_one();
  thread_.join();
}

void CollectiveProgress::post(std::function<void()> work) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(work));
  }
  ready_.notify_one();
}

void CollectiveProgress::loop() {
  for (;;) {
    std::function<void()> work;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      work = std::move(queue_.front());
      queue_.pop_front();
    }
    try {
      work();
    } catch (const std::exception& error) {
      // Passes record their own errors in their request; this is a last resort.
      log::get("mpi")->error("collective progress: {}", error.what());
    }
  }
}

}  // namespace zmpi::mpi::coll
