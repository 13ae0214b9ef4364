#pragma once
// Nonblocking collectives: a schedule (schedule.h) run as a request.
//
// Design. The call builds the whole schedule at once and returns a CollectiveRequest
// (Kind::Collective). The schedule advances in *passes*: a pass runs the actions of the
// round whose transfers all completed, starts the next round, and repeats until a round is
// in flight or the schedule is done. Passes run under the schedule's own mutex, from two
// places:
//  1. the program's Test/Wait (Request::progress()), and
//  2. the process's collective progress thread (CollectiveProgress), which is woken when
//     a transfer completes and there is something to do: start the next piece of a large
//     transfer (pieces.h), or end the round.
// The transfers' completion callbacks only count down and post to that thread: they run
// on the world's progress thread (or a zmq I/O thread, or the caller's), so they must
// neither block nor do user-sized work such as a 64 MiB reduction. So a collective moves
// on while the program computes, without it calling MPI. A pass never waits for anything
// (it starts transfers and runs local actions), so any number of outstanding collectives,
// on any communicators, advance independently; one slow reduction only delays others on
// the helper thread, it cannot block them.
//
// Wait needs no extra wakeup: Wait sleeps in Engine::waitUntil, which re-checks after
// every transfer completion, and the completion's post happens before that; the waiter's
// pass then either runs the round's actions itself or waits on the mutex for the helper's
// pass to finish.
#include <memory>

#include "mpi/coll/schedule.h"
#include "mpi/core/request.h"

namespace zmpi::mpi::coll {

class AsyncSchedule;

class CollectiveRequest : public Request {
 public:
  explicit CollectiveRequest(std::shared_ptr<AsyncSchedule> state);
  ~CollectiveRequest() override;
  bool progress() override;

 private:
  std::shared_ptr<AsyncSchedule> state_;
};

// Takes the communicator's next collective sequence number (so call it in program order,
// like the blocking form), starts the first round, and returns the request; the caller
// owns it (the C API hands it to the program as an MPI_Request).
CollectiveRequest* start(std::unique_ptr<Schedule> schedule);

// Blocks until the request completes (mock-mode tests; the C API uses MPI_Wait's path).
void wait(CollectiveRequest& request);

}  // namespace zmpi::mpi::coll
