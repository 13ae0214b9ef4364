#include "mpi/capi/p2p_ops.h"

#include <memory>

#include "mpi/capi/bsend_buffer.h"
#include "mpi/capi/validate.h"
#include "mpi/core/world.h"
#include "mpi/datatype/predefined.h"

namespace zmpi::mpi::capi {
namespace {

void setProcNullStatus(Request& request) {
  request.status.MPI_SOURCE = MPI_PROC_NULL;
  request.status.MPI_TAG = MPI_ANY_TAG;
  request.status.MPI_ERROR = MPI_SUCCESS;
  request.status._cancelled = 0;
  request.status._ucount = 0;
}

// A buffered send: the data is copied out now, an internal request carries it, and the
// user's request is complete at once.
void startBufferedSend(Request& request) {
  const std::size_t bytes = request.bytes();
  BsendBuffer::instance().reserve(bytes);
  auto* internal = new Request(Request::Kind::Send);
  internal->packed.resize(bytes);
  if (bytes) request.type->pack(request.buffer, static_cast<std::size_t>(request.count), internal->packed.data());
  internal->holdComm(request.comm);
  internal->buffer = internal->packed.data();
  internal->count = static_cast<int>(bytes);
  internal->type = byteType();
  internal->peer = request.peer;
  internal->commRank = request.commRank;
  internal->tag = request.tag;
  internal->context = request.context;
  internal->peerWorld = request.peerWorld;
  internal->freed = true;  // nobody waits on it: it deletes itself when sent
  internal->onComplete = [bytes](Request&) { BsendBuffer::instance().release(bytes); };
  try {
    request.comm->world().engine().startSend(*internal);
  } catch (...) {
    BsendBuffer::instance().release(bytes);
    delete internal;
    throw;
  }
  request.status = MPI_Status{};
  request.done.store(true);
}

}  // namespace

namespace {

// A send's arguments, checked (the same for every send path).
struct CheckedSend {
  Communicator& comm;
  Datatype& type;
};

CheckedSend checkSendArgs(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  countArg(count);
  Datatype& t = typeArg(type);
  bufferArg(buf, count, t);
  destArg(c, dest);
  sendTagArg(tag);
  return {c, t};
}

}  // namespace

void initSendRequest(Request& request, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     SendMode mode) {
  auto [c, t] = checkSendArgs(buf, count, type, dest, tag, comm);
  request.comm = &c;
  request.buffer = const_cast<void*>(buf);
  request.count = count;
  request.type = &t;
  request.peer = dest;
  request.commRank = c.rank();
  request.tag = tag;
  request.context = c.p2pContext();
  request.mode = mode;
  request.peerWorld = dest == MPI_PROC_NULL ? -1 : c.worldRankOf(dest);
  request.transient = true;
}

Request* makeSendRequest(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         SendMode mode) {
  auto request = std::make_unique<Request>(Request::Kind::Send);
  initSendRequest(*request, buf, count, type, dest, tag, comm, mode);
  request->transient = false;  // the program holds a handle
  request->holdComm(request->comm);
  request->holdType(request->type);
  return request.release();
}

void initRecvRequest(Request& request, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  countArg(count);
  Datatype& t = typeArg(type);
  bufferArg(buf, count, t);
  sourceArg(c, source);
  recvTagArg(tag);
  request.comm = &c;
  request.buffer = buf;
  request.count = count;
  request.type = &t;
  request.peer = source;
  // Named sources only; an MPI_ANY_SOURCE receive learns its sender at the match.
  request.peerWorld = c.worldRankOfSource(source);
  request.tag = tag;
  request.context = c.p2pContext();
  request.transient = true;
}

Request* makeRecvRequest(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm) {
  auto request = std::make_unique<Request>(Request::Kind::Recv);
  initRecvRequest(*request, buf, count, type, source, tag, comm);
  request->transient = false;  // the program holds a handle
  request->holdComm(request->comm);
  request->holdType(request->type);
  return request.release();
}

namespace {

bool sendEagerNow(Communicator& c, const Datatype& t, const void* buf, int count, int dest, int tag) {
  if (dest == MPI_PROC_NULL) return true;
  Engine& engine = c.world().engine();
  const uint64_t bytes = static_cast<uint64_t>(count) * t.size();
  if (bytes > engine.eagerLimit() || (bytes > 0 && !t.contiguous())) return false;
  const void* data = bytes > 0 ? static_cast<const char*>(buf) + t.trueLb() : buf;
  return engine.sendEagerNow(c.worldRankOf(dest), c.p2pContext(), c.rank(), tag, data, bytes);
}

}  // namespace

bool trySendEagerNow(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  auto [c, t] = checkSendArgs(buf, count, type, dest, tag, comm);
  return sendEagerNow(c, t, buf, count, dest, tag);
}

bool trySendEagerNow(Request& send) {
  if (send.mode != SendMode::Standard && send.mode != SendMode::Ready) return false;
  if (!sendEagerNow(*send.comm, *send.type, send.buffer, send.count, send.peer, send.tag)) return false;
  if (send.peer == MPI_PROC_NULL) {
    setProcNullStatus(send);
  } else {
    send.status = MPI_Status{};
  }
  send.done.store(true, std::memory_order_release);
  return true;
}

void startRequest(Request& request) {
  if (request.persistent) {
    if (request.active) fail(MPI_ERR_REQUEST, "persistent request is already active");
    request.active = true;
  }
  request.done.store(false);
  request.cancelled = false;
  if (request.peer == MPI_PROC_NULL) {
    setProcNullStatus(request);
    request.done.store(true);
    return;
  }
  Engine& engine = request.comm->world().engine();
  if (request.kind == Request::Kind::Send) {
    if (request.mode == SendMode::Buffered) {
      startBufferedSend(request);
    } else {
      engine.startSend(request);
    }
  } else {
    engine.startRecv(request);
  }
}

void waitRequest(Request& request) {
  if (request.kind == Request::Kind::Send || request.kind == Request::Kind::Recv) {
    if (request.done.load(std::memory_order_acquire)) return;
    request.comm->world().engine().wait(request);
  } else if (!request.progress()) {
    requireWorld().engine().waitUntil([&] { return request.progress(); });
  }
}

bool testRequest(Request& request) {
  if (request.kind == Request::Kind::Completed) return request.done.load(std::memory_order_acquire);
  if (request.kind == Request::Kind::Send || request.kind == Request::Kind::Recv) {
    if (request.done.load(std::memory_order_acquire)) return true;
    // A loop of MPI_Test calls is how programs wait while computing: take what is in the
    // rings now, as Open MPI's progress does inside MPI_Test.
    if (request.comm) request.comm->world().engine().pollOnce();
    return request.done.load(std::memory_order_acquire);
  }
  return request.progress();
}

int finishRequest(MPI_Request* handle, MPI_Status* status) {
  Request* request = requestOf(*handle);
  if (request == nullptr || (request->persistent && !request->active)) {
    setEmptyStatus(status);
    return MPI_SUCCESS;
  }
  const int error = request->status.MPI_ERROR;
  if (status != MPI_STATUS_IGNORE) {
    *status = request->status;
  }
  if (request->persistent) {
    request->active = false;
  } else {
    delete request;
    *handle = MPI_REQUEST_NULL;
  }
  return error;
}

Request* makeProcNullRequest(Request::Kind kind) {
  auto* request = new Request(kind);
  setProcNullStatus(*request);
  request->done.store(true);
  return request;
}

}  // namespace zmpi::mpi::capi
