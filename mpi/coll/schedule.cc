#include "mpi/coll/schedule.h"

#include <algorithm>
#include <atomic>

#include "mpi/coll/channel.h"
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

std::size_t Schedule::transferCount() const {
  std::size_t count = 0;
  for (const Round& round : rounds_) count += round.transfers.size();
  return count;
}

void run(Schedule& schedule) {
  Channel channel(schedule.comm());
  Engine& engine = schedule.comm().world().engine();
  // Detached transfers (the engine frees each request itself once complete) counted down
  // by their callbacks; the callbacks share the count, so one that fires after an error
  // unwound this frame still has it. Waiting in waitUntil is safe: the engine bumps its
  // progress epoch only after a completion's callback ran.
  struct Round {
    std::atomic<int> outstanding{0};
    std::atomic<int> error{MPI_SUCCESS};
  };
  auto state = std::make_shared<Round>();
  auto done = [state](int error) {
    if (error != MPI_SUCCESS) state->error.store(error);
    state->outstanding.fetch_sub(1, std::memory_order_acq_rel);
  };
  for (const Schedule::Round& round : schedule.rounds()) {
    state->outstanding.store(static_cast<int>(round.transfers.size()));
    // Receives first: a message then finds its receive posted instead of being queued
    // as unexpected (and, above the eager limit, its rendezvous answered at once).
    for (const auto& t : round.transfers) {
      if (!t.send) channel.irecvDetached(t.peer, t.step, t.data, t.bytes, done);
    }
    for (const auto& t : round.transfers) {
      if (t.send) channel.isendDetached(t.peer, t.step, t.data, t.bytes, done);
    }
    if (state->outstanding.load(std::memory_order_acquire) != 0) {
      engine.waitUntil([&] { return state->outstanding.load(std::memory_order_acquire) == 0; });
    }
    if (state->error.load() != MPI_SUCCESS) fail(state->error.load(), "collective message of unexpected size");
    for (const auto& action : round.actions) action();
  }
}

}  // namespace zmpi::mpi::coll
