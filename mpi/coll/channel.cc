#include "mpi/coll/channel.h"

#include <algorithm>
#include <climits>

#include "mpi/core/error.h"
#include "mpi/core/world.h"
#include "mpi/datatype/predefined.h"

namespace zmpi::mpi::coll {

Channel::Channel(Communicator& comm) : comm_(comm), sequence_(comm.nextCollectiveSequence()) {}

Channel::~Channel() {
  // Every request must have completed: a collective that throws half-way leaves the job
  // going down anyway, so wait for what is in flight rather than free live buffers.
  for (auto& request : live_) {
    if (request && !request->done.load()) {
      try {
        comm_.world().engine().wait(*request);
      } catch (...) {
      }
    }
  }
}

int Channel::tagFor(int step) const { return tagBase(sequence_) | (step & 0x7fff); }

std::unique_ptr<Request> Channel::make(Request::Kind kind, int peer, int step, void* data, std::size_t bytes) {
  if (peer < 0 || peer >= comm_.size()) fail(MPI_ERR_INTERN, "collective addressed a rank outside the communicator");
  if (bytes > static_cast<std::size_t>(INT_MAX)) fail(MPI_ERR_INTERN, "collective message above INT_MAX bytes");
  auto request = std::make_unique<Request>(kind);
  request->holdComm(&comm_);
  request->buffer = data;
  request->count = static_cast<int>(bytes);
  request->type = byteType();
  request->peer = peer;
  request->commRank = comm_.rank();
  request->tag = tagFor(step);
  request->context = comm_.collectiveContext();
  request->peerWorld = comm_.worldRankOf(peer);
  return request;
}

void Channel::launch(Request& request) {
  if (request.kind == Request::Kind::Send) {
    comm_.world().engine().startSend(request);
  } else {
    comm_.world().engine().startRecv(request);
  }
}

Request* Channel::start(Request::Kind kind, int peer, int step, void* data, std::size_t bytes) {
  auto request = make(kind, peer, step, data, bytes);
  Request* raw = request.get();
  live_.push_back(std::move(request));
  launch(*raw);
  return raw;
}

void Channel::startDetached(Request::Kind kind, int peer, int step, void* data, std::size_t bytes,
                            std::function<void(int)> onDone) {
  auto request = make(kind, peer, step, data, bytes);
  request->onComplete = [done = std::move(onDone)](Request& r) { done(r.status.MPI_ERROR); };
  // `freed`: the engine deletes the request right after completing it. Ownership passes
  // before the start, since completion may happen inside it; if the start throws half-way
  // (the world is going down) the request is leaked rather than freed under the engine.
  request->freed = true;
  launch(*request.release());
}

void Channel::isendDetached(int peer, int step, const void* data, std::size_t bytes, std::function<void(int)> onDone) {
  startDetached(Request::Kind::Send, peer, step, const_cast<void*>(data), bytes, std::move(onDone));
}

void Channel::irecvDetached(int peer, int step, void* data, std::size_t bytes, std::function<void(int)> onDone) {
  startDetached(Request::Kind::Recv, peer, step, data, bytes, std::move(onDone));
}

Request* Channel::isend(int peer, int step, const void* data, std::size_t bytes) {
  return start(Request::Kind::Send, peer, step, const_cast<void*>(data), bytes);
}

Request* Channel::irecv(int peer, int step, void* data, std::size_t bytes) {
  return start(Request::Kind::Recv, peer, step, data, bytes);
}

void Channel::wait(Request* request) {
  comm_.world().engine().wait(*request);
  if (request->status.MPI_ERROR != MPI_SUCCESS) {
    fail(request->status.MPI_ERROR, "collective message of unexpected size");
  }
  auto it = std::find_if(live_.begin(), live_.end(), [&](const auto& r) { return r.get() == request; });
  if (it != live_.end()) live_.erase(it);
}

void Channel::waitAll(const std::vector<Request*>& requests) {
  for (Request* request : requests) wait(request);
}

bool Channel::test(Request* request) {
  if (!request->done.load(std::memory_order_acquire)) return false;
  wait(request);
  return true;
}

void Channel::sendrecv(int dest, int sendStep, const void* sendData, std::size_t sendBytes, int source, int recvStep,
                       void* recvData, std::size_t recvBytes) {
  Request* r = irecv(source, recvStep, recvData, recvBytes);
  Request* s = isend(dest, sendStep, sendData, sendBytes);
  wait(s);
  wait(r);
}

}  // namespace zmpi::mpi::coll
