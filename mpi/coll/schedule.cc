#include "mpi/coll/schedule.h"

#include <algorithm>
#include <atomic>

#include "mpi/coll/channel.h"
#include "mpi/coll/pieces.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"

namespace zmpi::mpi::coll {
namespace {
constexpr int kStepLimit = 1 << 15;  // Channel packs the step into 15 tag bits
}  // namespace

Schedule::Schedule(Communicator& comm) : comm_(comm), rank_(comm.rank()), size_(comm.size()) {}

Schedule::~Schedule() {
  for (Datatype* type : held_) type->release();
  for (Op* op : heldOps_) op->release();
  // Last: releasing an intercommunicator may delete the bridge this schedule ran over.
  for (Communicator* comm : heldComms_) comm->release();
}

Schedule::Round& Schedule::openRound() {
  // A transfer after local actions (or after a fence) belongs to a new round.
  if (rounds_.empty() || fenced_ || !rounds_.back().actions.empty()) {
    rounds_.emplace_back();
    fenced_ = false;
  }
  return rounds_.back();
}

void Schedule::add(bool send, int peer, int step, char* data, std::size_t bytes) {
  const int tagStep = stepBase_ + step;
  if (step < 0 || tagStep >= kStepLimit) fail(MPI_ERR_INTERN, "collective step out of range");
  if (bytes == 0) return;
  Round& round = openRound();
  for (std::size_t done = 0; done < bytes; done += kMaxMessageBytes) {
    round.transfers.push_back({send, peer, tagStep, data + done, std::min(kMaxMessageBytes, bytes - done)});
  }
}

void Schedule::send(int peer, int step, const void* data, std::size_t bytes) {
  add(true, peer, step, const_cast<char*>(static_cast<const char*>(data)), bytes);
}

void Schedule::recv(int peer, int step, void* data, std::size_t bytes) {
  add(false, peer, step, static_cast<char*>(data), bytes);
}

void Schedule::local(std::function<void()> action) {
  if (rounds_.empty() || fenced_) {
    rounds_.emplace_back();
    fenced_ = false;
  }
  rounds_.back().actions.push_back(std::move(action));
}

void Schedule::fence() {
  if (!rounds_.empty()) fenced_ = true;
}

char* Schedule::scratch(std::size_t bytes) {
  scratch_.push_back(std::make_unique_for_overwrite<char[]>(std::max<std::size_t>(bytes, 1)));
  scratchBytes_ += bytes;
  return scratch_.back().get();
}

void Schedule::hold(Datatype* type) {
  if (type == nullptr || type->predefined()) return;
  type->retain();
  held_.push_back(type);
}

void Schedule::hold(Op* op) {
  if (op == nullptr || op->predefined()) return;
  op->retain();
  heldOps_.push_back(op);
}

void Schedule::hold(Communicator* comm) {
  if (comm->retain()) heldComms_.push_back(comm);
}

std::size_t Schedule::transferCount() const {
  std::size_t count = 0;
  for (const Round& round : rounds_) count += round.transfers.size();
  return count;
}

void run(Schedule& schedule) {
  Channel channel(schedule.comm());
  Engine& engine = schedule.comm().world().engine();
  for (const Schedule::Round& round : schedule.rounds()) {
    // Detached transfers (the engine frees each request itself once complete) report to
    // the round's state; the callbacks share it, so one that fires after an error unwound
    // this frame still has it. Waiting in waitUntil is safe: the engine bumps its progress
    // epoch only after a completion's callback ran.
    auto state = std::make_shared<PiecedRound>(round, schedule.segmentBytes());
    auto begin = [&channel, &state](const Schedule::Transfer& t, std::size_t stream) {
      auto done = [state, stream](int error) { state->pieceDone(stream, error); };
      if (t.send) {
        channel.isendDetached(t.peer, t.step, t.data, t.bytes, std::move(done));
      } else {
        channel.irecvDetached(t.peer, t.step, t.data, t.bytes, std::move(done));
      }
    };
    // Count completions before each start: one during or after it then ends the wait.
    uint64_t seen = state->completions();
    state->start(begin);
    // Spin only if some transfer of the round may come through the rings (Engine::spinsFor).
    const bool spin = std::any_of(round.transfers.begin(), round.transfers.end(), [&](const Schedule::Transfer& t) {
      return engine.spinsFor(schedule.comm().worldRankOf(t.peer));
    });
    // Receive in the wait only if every transfer comes through the zmq inbox (small ones).
    const bool inboxTraffic =
        std::all_of(round.transfers.begin(), round.transfers.end(), [&](const Schedule::Transfer& t) {
          return engine.travelsThroughInbox(schedule.comm().worldRankOf(t.peer), t.bytes);
        });
    // The round's bytes lengthen the spin as they would a point-to-point wait's.
    uint64_t roundBytes = 0;
    for (const Schedule::Transfer& t : round.transfers) roundBytes += t.bytes;
    while (!state->finished()) {
      engine.waitUntil([&] { return state->completions() != seen; }, spin, inboxTraffic, roundBytes);
      seen = state->completions();
      state->start(begin);
    }
    if (state->error() != MPI_SUCCESS) fail(state->error(), "collective message of unexpected size");
    for (const auto& action : round.actions) action();
  }
}

}  // namespace zmpi::mpi::coll
