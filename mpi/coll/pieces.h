#pragma once
// One round of a schedule with its large transfers in pieces (Schedule::segmentBytes):
// each transfer is a stream of pieces sent (or received) in order, at most kWindow of them
// in flight, the next one started as soon as one completes. A rank then never has more
// than kWindow pieces of a transfer with the transport, which copies the part of a message
// that does not fit its shared-memory ring at once (a whole 16 MiB message, without
// pieces); the window keeps the next piece's hand-shake under the current piece's data.
// Both runners use it (run() in schedule.cc, the nonblocking one in async.cc), so both
// send the same messages.
//
// Threads: start() and finished() run on one thread at a time (the runner's); pieceDone()
// runs on whichever thread completed a transfer, concurrently with them.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

class PiecedRound {
 public:
  static constexpr std::size_t kWindow = 2;

  // `pieceBytes` 0: every transfer is one piece.
  PiecedRound(const Schedule::Round& round, std::size_t pieceBytes);

  // Starts every piece that may start now, receives before sends; `begin(piece, stream)`
  // starts one (its completion must call pieceDone(stream, error)). A stream starts after
  // the previous one with the same peer, direction and step started its last piece, so
  // their pieces keep MPI's order. After an error the round still runs to its end (as a
  // round without pieces does), so no peer waits for a piece that never comes.
  void start(const std::function<void(const Schedule::Transfer& piece, std::size_t stream)>& begin);
  // Returns true when the runner should call start() again or look at finished().
  bool pieceDone(std::size_t stream, int error);
  // Every piece started and completed.
  bool finished() const;
  int error() const { return error_.load(std::memory_order_acquire); }
  // Grows with every completed piece.
  uint64_t completions() const { return completions_.load(std::memory_order_acquire); }

 private:
  struct Stream {
    Schedule::Transfer transfer;
    std::size_t pieces;
    std::size_t started = 0;
    int previous = -1;  // stream with the same peer, direction and step before this one
  };
  bool mayStart(std::size_t index) const;

  std::size_t pieceBytes_;
  std::vector<Stream> streams_;
  std::unique_ptr<std::atomic<std::size_t>[]> completed_;  // per stream
  std::size_t totalPieces_ = 0;
  std::size_t startedPieces_ = 0;
  std::atomic<uint64_t> completions_{0};
  std::atomic<int> error_{0};
};

}  // namespace zmpi::mpi::coll
