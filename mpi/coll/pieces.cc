#include "mpi/coll/pieces.h"

#include <mpi.h>

#include <algorithm>

namespace zmpi::mpi::coll {

PiecedRound::PiecedRound(const Schedule::Round& round, std::size_t pieceBytes)
    : pieceBytes_(pieceBytes), completed_(std::make_unique<std::atomic<std::size_t>[]>(round.transfers.size())) {
  error_.store(MPI_SUCCESS);
  streams_.reserve(round.transfers.size());
  for (const Schedule::Transfer& t : round.transfers) {
    Stream stream{t, pieceBytes_ == 0 ? 1 : (t.bytes + pieceBytes_ - 1) / pieceBytes_};
    for (int i = static_cast<int>(streams_.size()) - 1; i >= 0; --i) {
      const Schedule::Transfer& other = streams_[static_cast<std::size_t>(i)].transfer;
      if (other.send == t.send && other.peer == t.peer && other.step == t.step) {
        stream.previous = i;
        break;
      }
    }
    totalPieces_ += stream.pieces;
    completed_[streams_.size()].store(0);
    streams_.push_back(stream);
  }
}

bool PiecedRound::mayStart(std::size_t index) const {
  const Stream& stream = streams_[index];
  if (stream.started == stream.pieces) return false;
  if (stream.started - completed_[index].load(std::memory_order_acquire) >= kWindow) return false;
  if (stream.previous >= 0) {
    const Stream& previous = streams_[static_cast<std::size_t>(stream.previous)];
    if (previous.started < previous.pieces) return false;
  }
  return true;
}

void PiecedRound::start(const std::function<void(const Schedule::Transfer&, std::size_t)>& begin) {
  // Receives first: a message then finds its receive posted instead of being queued as
  // unexpected (and, above the eager limit, its rendezvous answered at once).
  for (bool sends : {false, true}) {
    for (bool progress = true; progress;) {
      progress = false;
      for (std::size_t i = 0; i < streams_.size(); ++i) {
        Stream& stream = streams_[i];
        if (stream.transfer.send != sends) continue;
        while (mayStart(i)) {
          Schedule::Transfer piece = stream.transfer;
          if (pieceBytes_ != 0) {
            const std::size_t offset = stream.started * pieceBytes_;
            piece.data += offset;
            piece.bytes = std::min(pieceBytes_, stream.transfer.bytes - offset);
          }
          ++stream.started;
          ++startedPieces_;
          progress = true;  // a later stream may wait for this one
          begin(piece, i);
        }
      }
    }
  }
}

bool PiecedRound::pieceDone(std::size_t stream, int error) {
  if (error != MPI_SUCCESS) {
    int expected = MPI_SUCCESS;
    error_.compare_exchange_strong(expected, error);
  }
  const std::size_t done = completed_[stream].fetch_add(1, std::memory_order_acq_rel) + 1;
  const uint64_t all = completions_.fetch_add(1, std::memory_order_acq_rel) + 1;
  return done < streams_[stream].pieces || all == totalPieces_;
}

bool PiecedRound::finished() const {
  const uint64_t done = completions();
  return startedPieces_ == totalPieces_ && done == totalPieces_;
}

}  // namespace zmpi::mpi::coll
