#pragma once
// One collective call on one rank, as data: a list of rounds, each a set of byte transfers
// that run concurrently, followed by local actions (combine, copy, pack, unpack) that run
// once all of the round's transfers completed. Algorithms (one free function each, see
// the other files of this folder) append to a schedule; runners execute it: blocking in
// the caller (run() below) or as a nonblocking request (async.h). Every algorithm is
// written once, so the blocking and nonblocking forms send the same messages by
// construction.
//
// Zero-byte transfers are dropped when added: every algorithm here derives sizes from
// arguments both sides agree on (MPI requires matching type signatures), so the peer
// drops its side too. Transfers above kMaxMessageBytes are split into pieces with the same
// step; MPI's non-overtaking order between a pair keeps the pieces in order.
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/datatype/datatype.h"
#include "mpi/op/op.h"

namespace zmpi::mpi::coll {

inline constexpr std::size_t kMaxMessageBytes = std::size_t{1} << 30;

class Schedule {
 public:
  struct Transfer {
    bool send;
    int peer;
    int step;
    char* data;
    std::size_t bytes;
  };
  struct Round {
    std::vector<Transfer> transfers;
    std::vector<std::function<void()>> actions;  // after every transfer of the round
  };

  explicit Schedule(Communicator& comm);
  ~Schedule();
  Schedule(const Schedule&) = delete;
  Schedule& operator=(const Schedule&) = delete;

  Communicator& comm() { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

  // Adds a transfer to the current round. `step` tells apart messages between the same
  // pair within one collective call; both sides name the same step. Steps are offset by
  // the step base (see setStepBase).
  void send(int peer, int step, const void* data, std::size_t bytes);
  void recv(int peer, int step, void* data, std::size_t bytes);
  // Runs after every transfer added before it; transfers added after it start later.
  void local(std::function<void()> action);
  // Transfers added after a fence start only once those before it completed.
  void fence();

  // Large transfers travel in pieces of this many bytes, 0 for whole (pieces.h); both
  // runners cut every transfer of the schedule alike. Algorithms read it to bound their
  // scratch (a reduction combines piece by piece).
  void setSegmentBytes(std::size_t bytes) { segmentBytes_ = bytes; }
  std::size_t segmentBytes() const { return segmentBytes_; }

  // Composite collectives (reduce then scatter, ...) run one algorithm after another in
  // one call; giving each phase its own step range keeps their messages apart.
  void setStepBase(int base) { stepBase_ = base; }

  // Uninitialised memory owned by the schedule: valid until the schedule is destroyed.
  char* scratch(std::size_t bytes);
  // Keeps a derived datatype alive until the schedule is destroyed: a nonblocking call may
  // outlive the program's MPI_Type_free.
  void hold(Datatype* type);
  void hold(Op* op);  // likewise for a user op (MPI_Op_free)
  // Likewise for a communicator the program may free while the call is pending (an
  // intercommunicator whose bridge the schedule runs over, coll/inter.h).
  void hold(Communicator* comm);

  const std::vector<Round>& rounds() const { return rounds_; }
  std::size_t transferCount() const;
  std::size_t scratchBytes() const { return scratchBytes_; }  // allocated by scratch()

 private:
  void add(bool send, int peer, int step, char* data, std::size_t bytes);
  Round& openRound();

  Communicator& comm_;
  int rank_;
  int size_;
  int stepBase_ = 0;
  std::size_t segmentBytes_ = 0;
  bool fenced_ = false;
  std::vector<Round> rounds_;
  std::vector<std::unique_ptr<char[]>> scratch_;
  std::size_t scratchBytes_ = 0;
  std::vector<Datatype*> held_;
  std::vector<Op*> heldOps_;
  std::vector<Communicator*> heldComms_;
};

// Runs the schedule to completion in the calling thread: each round's receives are
// posted, then its sends, then all are awaited and the round's actions run. Throws
// MpiError for a message of the wrong size (MPI_ERR_TRUNCATE) or a dying world.
void run(Schedule& schedule);

}  // namespace zmpi::mpi::coll
