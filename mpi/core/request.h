#pragma once
// A request: one point-to-point operation (or a generalized / collective one) from start
// to completion. The user holds &handle; the engine holds the pointer while the operation
// is in flight. `done` is set exactly once per activation, under the engine's mutex.
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "mpi/core/handle.h"

namespace zmpi::mpi {

class Communicator;
class Datatype;

enum class SendMode : uint8_t { Standard, Synchronous, Ready, Buffered };

class Request {
 public:
  enum class Kind : uint8_t { Send, Recv, Generalized, Collective, Completed };

  explicit Request(Kind kind);
  virtual ~Request();
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;

  MPI_Request handle() { return &handle_; }

  Kind kind;
  std::atomic<bool> done{false};
  bool persistent = false;
  bool active = false;  // persistent requests: started and not yet completed
  bool freed = false;   // MPI_Request_free called while still in flight
  bool cancelled = false;
  // Lives on a blocking call's stack and has no handle: the program cannot free it, so its
  // completion needs no lock (Engine::complete).
  bool transient = false;
  MPI_Status status{};  // valid once done

  // The operation's arguments.
  Communicator* comm = nullptr;
  void* buffer = nullptr;
  int count = 0;
  Datatype* type = nullptr;
  // count elements of type: what the operation moves (a receive: what its buffer holds);
  // 0 without a type (collectives' and generalized requests).
  uint64_t bytes() const;
  // Holds a reference on `type` for the request's whole life, so MPI_Type_free while an
  // operation is pending (or a persistent request exists) cannot free it early.
  void holdType(Datatype* t);
  // Sets `comm` and holds a reference on it (if the program owns it), so MPI_Comm_free
  // while the request exists defers the deletion until the request is gone.
  void holdComm(Communicator* c);
  int peer = 0;      // destination or source rank in comm (or MPI_ANY_SOURCE / MPI_PROC_NULL)
  int commRank = 0;  // the sender's own rank in comm (the envelope's source)
  int tag = 0;
  int context = 0;
  SendMode mode = SendMode::Standard;

  // Engine state.
  uint64_t id = 0;
  int peerWorld = -1;
  std::vector<char> packed;  // packed copy of a non-contiguous send, or a bsend copy
  std::size_t bsendBytes = 0;
  // A posted receive's links in the engine's PostedQueue (guarded by the engine's mutex).
  Request* postedPrev = nullptr;
  Request* postedNext = nullptr;
  bool isPosted = false;

  // Called by the engine (under no lock) after completion; nonblocking collectives and
  // bsend accounting hook in here.
  std::function<void(Request&)> onComplete;

  // Nonblocking collectives and generalized requests: advance without blocking; returns
  // true once complete. Called from test/wait in the user's thread.
  virtual bool progress() { return done.load(std::memory_order_acquire); }

 private:
  ompi_request_t handle_;
  Datatype* heldType_ = nullptr;
  Communicator* heldComm_ = nullptr;
};

// Throws MpiError(MPI_ERR_REQUEST) for an invalid handle; returns null for MPI_REQUEST_NULL.
Request* requestOf(MPI_Request handle);

void setEmptyStatus(MPI_Status* status);  // status of a null / inactive request
inline void copyStatus(MPI_Status* dst, const MPI_Status& src) {
  if (dst != MPI_STATUS_IGNORE) *dst = src;
}

}  // namespace zmpi::mpi
