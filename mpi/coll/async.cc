#include "mpi/coll/async.h"

#include <atomic>
#include <mutex>

#include "mpi/coll/channel.h"
#include "mpi/coll/progress_thread.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"

namespace zmpi::mpi::coll {

// The running state of one nonblocking collective. Shared by the request, the transfers'
// completion callbacks and queued passes, so whichever lets go last frees it: a request
// may be freed (after completing with an error) while a transfer is still in flight.
class AsyncSchedule : public std::enable_shared_from_this<AsyncSchedule> {
 public:
  explicit AsyncSchedule(std::unique_ptr<Schedule> schedule)
      : schedule_(std::move(schedule)), channel_(schedule_->comm()) {}

  void attach(Request* request) { request_ = request; }
  void detach() {
    std::lock_guard lock(mutex_);
    request_ = nullptr;
  }

  // Advances as far as possible without waiting (see async.h).
  void pass() {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    try {
      advance();
    } catch (const MpiError& error) {
      finish(error.code());
    } catch (const std::bad_alloc&) {
      finish(MPI_ERR_NO_MEM);
    } catch (const std::exception&) {
      finish(MPI_ERR_INTERN);
    }
  }

 private:
  void advance() {
    const auto& rounds = schedule_->rounds();
    for (;;) {
      if (inFlight_) {
        if (outstanding_.load(std::memory_order_acquire) != 0) return;
        inFlight_ = false;
        for (const auto& action : rounds[next_ - 1].actions) action();
      }
      if (next_ == rounds.size()) {
        finish(error_.load());
        return;
      }
      const Schedule::Round& round = rounds[next_++];
      inFlight_ = true;
      // One extra count held by this pass: a transfer that completes during its own start
      // must not look like the end of the round before the rest have started.
      outstanding_.store(static_cast<int>(round.transfers.size()) + 1, std::memory_order_relaxed);
      for (const auto& t : round.transfers) {
        if (!t.send) channel_.irecvDetached(t.peer, t.step, t.data, t.bytes, callback());
      }
      for (const auto& t : round.transfers) {
        if (t.send) channel_.isendDetached(t.peer, t.step, t.data, t.bytes, callback());
      }
      if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    }
  }

  std::function<void(int)> callback() {
    return [self = shared_from_this()](int error) { self->transferDone(error); };
  }

  // Runs on whatever thread completed a transfer: count down, and on the round's last
  // transfer hand the next pass to the progress thread.
  void transferDone(int error) {
    if (error != MPI_SUCCESS) {
      int expected = MPI_SUCCESS;
      error_.compare_exchange_strong(expected, error);
    }
    if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      CollectiveProgress::instance().post([self = shared_from_this()] { self->pass(); });
    }
  }

  void finish(int error) {
    finished_ = true;
    // After an error, transfers may still be writing into the schedule's scratch memory;
    // it then lives on until the last callback lets go of this state.
    if (error == MPI_SUCCESS) schedule_.reset();
    if (request_ == nullptr) return;
    MPI_Status& status = request_->status;
    status.MPI_SOURCE = MPI_ANY_SOURCE;
    status.MPI_TAG = MPI_ANY_TAG;
    status.MPI_ERROR = error;
    status._cancelled = 0;
    status._ucount = 0;
    // The program may free the request as soon as it sees `done`: publish it last.
    Request* request = request_;
    request_ = nullptr;
    request->done.store(true, std::memory_order_release);
  }

  std::mutex mutex_;  // serialises passes
  std::unique_ptr<Schedule> schedule_;
  Channel channel_;
  Request* request_ = nullptr;
  std::size_t next_ = 0;   // the round to start next
  bool inFlight_ = false;  // round next_ - 1 started and its actions not yet run
  bool finished_ = false;
  std::atomic<int> outstanding_{0};
  std::atomic<int> error_{MPI_SUCCESS};
};

CollectiveRequest::CollectiveRequest(std::shared_ptr<AsyncSchedule> state)
    : Request(Kind::Collective), state_(std::move(state)) {}

CollectiveRequest::~CollectiveRequest() { state_->detach(); }

bool CollectiveRequest::progress() {
  if (done.load(std::memory_order_acquire)) return true;
  state_->pass();
  return done.load(std::memory_order_acquire);
}

CollectiveRequest* start(std::unique_ptr<Schedule> schedule) {
  Communicator& comm = schedule->comm();
  auto state = std::make_shared<AsyncSchedule>(std::move(schedule));
  auto* request = new CollectiveRequest(state);
  request->holdComm(&comm);
  state->attach(request);
  state->pass();
  return request;
}

void wait(CollectiveRequest& request) {
  if (request.progress()) return;
  request.comm->world().engine().waitUntil([&] { return request.progress(); });
}

}  // namespace zmpi::mpi::coll
