#pragma once
// The narrow point-to-point contract collectives are written against (gloo's "unbound
// buffer" idea): send/receive contiguous bytes to/from a rank of the communicator, in the
// communicator's collective context, with tags built from the collective's sequence number
// and a per-step number. A collective therefore never matches a user's receive, and two
// collectives in flight on one communicator never match each other's messages.
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/core/request.h"

namespace zmpi::mpi::coll {

class Channel {
 public:
  // Takes the communicator's next collective sequence number: every rank creates its
  // Channel for the same collective call, in the same order.
  explicit Channel(Communicator& comm);
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  int rank() const { return comm_.rank(); }
  int size() const { return comm_.size(); }
  Communicator& comm() { return comm_; }

  // The tag of step 0 of the collective with this sequence number; step s is tagBase | s.
  static int tagBase(uint32_t sequence) { return static_cast<int>((sequence & 0xffffu) << 15); }

  // Nonblocking byte transfers; `step` distinguishes messages between the same pair
  // within one collective (0 <= step < 2^15). Returned requests are owned by the channel
  // until waited.
  Request* isend(int peer, int step, const void* data, std::size_t bytes);
  Request* irecv(int peer, int step, void* data, std::size_t bytes);
  void wait(Request* request);
  void waitAll(const std::vector<Request*>& requests);
  // True if done (then the request is released, as by wait).
  bool test(Request* request);

  // Fire-and-forget transfers for nonblocking collectives (coll/async.h): the engine owns
  // the request and deletes it once complete, after calling `onDone` with the transfer's
  // error code (MPI_SUCCESS, or MPI_ERR_TRUNCATE for a longer message). onDone runs on
  // whichever thread completed the transfer (the world's progress thread, a zmq I/O thread
  // releasing a zero-copy payload, or the caller when the data had already arrived): it
  // must be short and must not block. The buffer must stay valid until onDone ran.
  void isendDetached(int peer, int step, const void* data, std::size_t bytes, std::function<void(int)> onDone);
  void irecvDetached(int peer, int step, void* data, std::size_t bytes, std::function<void(int)> onDone);

  void send(int peer, int step, const void* data, std::size_t bytes) { wait(isend(peer, step, data, bytes)); }
  void recv(int peer, int step, void* data, std::size_t bytes) { wait(irecv(peer, step, data, bytes)); }
  void sendrecv(int dest, int sendStep, const void* sendData, std::size_t sendBytes, int source, int recvStep,
                void* recvData, std::size_t recvBytes);

 private:
  int tagFor(int step) const;
  std::unique_ptr<Request> make(Request::Kind kind, int peer, int step, void* data, std::size_t bytes);
  void launch(Request& request);
  Request* start(Request::Kind kind, int peer, int step, void* data, std::size_t bytes);
  void startDetached(Request::Kind kind, int peer, int step, void* data, std::size_t bytes,
                     std::function<void(int)> onDone);

  Communicator& comm_;
  uint32_t sequence_;
  std::vector<std::unique_ptr<Request>> live_;
};

}  // namespace zmpi::mpi::coll
