#include "mpi/coll/async.h"

#include <atomic>
#include <mutex>

#include "mpi/coll/channel.h"
#include "mpi/coll/pieces.h"
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
      if (current_) {
        current_->start(begin_);
        if (!current_->finished()) return;
        if (current_->error() != MPI_SUCCESS) {
          int expected = MPI_SUCCESS;
          error_.compare_exchange_strong(expected, current_->error());
        }
        current_.reset();
        for (const auto& action : rounds[next_ - 1].actions) action();
      }
      if (next_ == rounds.size()) {
        finish(error_.load());
        return;
      }
      current_ = std::make_shared<PiecedRound>(rounds[next_++], schedule_->segmentBytes());
    }
  }

  // Starts one piece of the current round. Its callback runs on whatever thread completed
  // the transfer: it counts, and when there is something to do (start the next piece, end
  // the round) hands a pass to the progress thread.
  void beginPiece(const Schedule::Transfer& t, std::size_t stream) {
    auto done = [self = shared_from_this(), round = current_, stream](int error) {
      if (round->pieceDone(stream, error)) CollectiveProgress::instance().post([self] { self->pass(); });
    };
    if (t.send) {
      channel_.isendDetached(t.peer, t.step, t.data, t.bytes, std::move(done));
    } else {
      channel_.irecvDetached(t.peer, t.step, t.data, t.bytes, std::move(done));
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
  std::size_t next_ = 0;                  // the round to start next
  std::shared_ptr<PiecedRound> current_;  // round next_ - 1 while its transfers run
  std::function<void(const Schedule::Transfer&, std::size_t)> begin_ =
      [this](const Schedule::Transfer& t, std::size_t stream) { beginPiece(t, stream); };
  bool finished_ = false;
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
