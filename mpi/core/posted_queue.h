#pragma once
// The posted receives of one engine, in the order they were posted (MPI matches the
// oldest first). Linked through the requests themselves, so posting and matching a
// receive allocate nothing -- a std::list node per receive was a malloc and a free on
// every MPI_Recv. The engine's mutex guards it.
#include "mpi/core/request.h"

namespace zmpi::mpi {

class PostedQueue {
 public:
  void push(Request& request) {
    request.postedPrev = tail_;
    request.postedNext = nullptr;
    if (tail_) {
      tail_->postedNext = &request;
    } else {
      head_ = &request;
    }
    tail_ = &request;
    request.isPosted = true;
  }

  // Unlinks `request` if it is queued; returns whether it was.
  bool remove(Request& request) {
    if (!request.isPosted) return false;
    (request.postedPrev ? request.postedPrev->postedNext : head_) = request.postedNext;
    (request.postedNext ? request.postedNext->postedPrev : tail_) = request.postedPrev;
    request.postedPrev = request.postedNext = nullptr;
    request.isPosted = false;
    return true;
  }

  // Removes and returns the oldest request `matches` accepts, or null.
  template <typename Matches>
  Request* takeFirst(Matches&& matches) {
    for (Request* request = head_; request != nullptr; request = request->postedNext) {
      if (matches(*request)) {
        remove(*request);
        return request;
      }
    }
    return nullptr;
  }

 private:
  Request* head_ = nullptr;
  Request* tail_ = nullptr;
};

}  // namespace zmpi::mpi
