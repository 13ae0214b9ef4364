// Point-to-point entry points: blocking, nonblocking and persistent sends and receives.
#include <memory>
#include <vector>

#include "mpi/capi/bsend_buffer.h"
#include "mpi/capi/entry.h"
#include "mpi/capi/p2p_ops.h"
#include "mpi/capi/validate.h"
#include "mpi/core/world.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

int blockingSend(const char* call, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                 SendMode mode) {
  return guardedComm(call, comm, [&] {
    if ((mode == SendMode::Standard || mode == SendMode::Ready) && trySendEagerNow(buf, count, type, dest, tag, comm)) {
      return MPI_SUCCESS;
    }
    Request request(Request::Kind::Send);
    initSendRequest(request, buf, count, type, dest, tag, comm, mode);
    startRequest(request);
    waitRequest(request);
    return request.status.MPI_ERROR;
  });
}

int nonblockingSend(const char* call, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    SendMode mode, MPI_Request* out) {
  return guardedComm(call, comm, [&] {
    requestPointerArg(out);
    std::unique_ptr<Request> request(makeSendRequest(buf, count, type, dest, tag, comm, mode));
    startRequest(*request);
    *out = request.release()->handle();
    return MPI_SUCCESS;
  });
}

int persistentSend(const char* call, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   SendMode mode, MPI_Request* out) {
  return guardedComm(call, comm, [&] {
    requestPointerArg(out);
    Request* request = makeSendRequest(buf, count, type, dest, tag, comm, mode);
    request->persistent = true;
    *out = request->handle();
    return MPI_SUCCESS;
  });
}

// Posts and waits for a receive whose request lives on the caller's stack: withdrawn from
// the engine before an error (the job ending) leaves the frame.
void receive(Request& recv) {
  startRequest(recv);
  try {
    waitRequest(recv);
  } catch (...) {
    if (!recv.done.load(std::memory_order_acquire)) recv.comm->world().engine().cancel(recv);
    throw;
  }
}

// Sendrecv's two halves, both requests initialised (so validated): the receive is posted
// first, so two ranks exchanging never both wait on a send. Requests live on the caller's
// stack: a posted receive is withdrawn before an error leaves this frame.
void exchange(Request& send, Request& recv) {
  startRequest(recv);
  try {
    if (!trySendEagerNow(send)) {
      startRequest(send);
      waitRequest(send);
    }
    waitRequest(recv);
  } catch (...) {
    if (!recv.done.load(std::memory_order_acquire)) recv.comm->world().engine().cancel(recv);
    throw;
  }
}

}  // namespace

extern "C" {

int PMPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blockingSend("MPI_Send", buf, count, type, dest, tag, comm, SendMode::Standard);
}
ZMPI_ALIAS(MPI_Send)

int PMPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blockingSend("MPI_Ssend", buf, count, type, dest, tag, comm, SendMode::Synchronous);
}
ZMPI_ALIAS(MPI_Ssend)

int PMPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blockingSend("MPI_Rsend", buf, count, type, dest, tag, comm, SendMode::Ready);
}
ZMPI_ALIAS(MPI_Rsend)

int PMPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blockingSend("MPI_Bsend", buf, count, type, dest, tag, comm, SendMode::Buffered);
}
ZMPI_ALIAS(MPI_Bsend)

int PMPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblockingSend("MPI_Isend", buf, count, type, dest, tag, comm, SendMode::Standard, request);
}
ZMPI_ALIAS(MPI_Isend)

int PMPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblockingSend("MPI_Issend", buf, count, type, dest, tag, comm, SendMode::Synchronous, request);
}
ZMPI_ALIAS(MPI_Issend)

int PMPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblockingSend("MPI_Irsend", buf, count, type, dest, tag, comm, SendMode::Ready, request);
}
ZMPI_ALIAS(MPI_Irsend)

int PMPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblockingSend("MPI_Ibsend", buf, count, type, dest, tag, comm, SendMode::Buffered, request);
}
ZMPI_ALIAS(MPI_Ibsend)

int PMPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return persistentSend("MPI_Send_init", buf, count, type, dest, tag, comm, SendMode::Standard, request);
}
ZMPI_ALIAS(MPI_Send_init)

int PMPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    MPI_Request* request) {
  return persistentSend("MPI_Ssend_init", buf, count, type, dest, tag, comm, SendMode::Synchronous, request);
}
ZMPI_ALIAS(MPI_Ssend_init)

int PMPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    MPI_Request* request) {
  return persistentSend("MPI_Rsend_init", buf, count, type, dest, tag, comm, SendMode::Ready, request);
}
ZMPI_ALIAS(MPI_Rsend_init)

int PMPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    MPI_Request* request) {
  return persistentSend("MPI_Bsend_init", buf, count, type, dest, tag, comm, SendMode::Buffered, request);
}
ZMPI_ALIAS(MPI_Bsend_init)

int PMPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return guardedComm("MPI_Recv", comm, [&] {
    Request request(Request::Kind::Recv);
    initRecvRequest(request, buf, count, type, source, tag, comm);
    receive(request);
    copyStatus(status, request.status);
    if (request.status.MPI_ERROR == MPI_ERR_TRUNCATE) {
      fail(MPI_ERR_TRUNCATE, "received " + std::to_string(request.status._ucount) + "+ bytes into a buffer of " +
                                 std::to_string(count) + " elements");
    }
    return request.status.MPI_ERROR;
  });
}
ZMPI_ALIAS(MPI_Recv)

int PMPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* out) {
  return guardedComm("MPI_Irecv", comm, [&] {
    requestPointerArg(out);
    std::unique_ptr<Request> request(makeRecvRequest(buf, count, type, source, tag, comm));
    startRequest(*request);
    *out = request.release()->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Irecv)

int PMPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* out) {
  return guardedComm("MPI_Recv_init", comm, [&] {
    requestPointerArg(out);
    Request* request = makeRecvRequest(buf, count, type, source, tag, comm);
    request->persistent = true;
    *out = request->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Recv_init)

int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return guardedComm("MPI_Sendrecv", comm, [&] {
    Request recv(Request::Kind::Recv);
    Request send(Request::Kind::Send);
    initRecvRequest(recv, recvbuf, recvcount, recvtype, source, recvtag, comm);
    initSendRequest(send, sendbuf, sendcount, sendtype, dest, sendtag, comm, SendMode::Standard);
    exchange(send, recv);
    copyStatus(status, recv.status);
    if (recv.status.MPI_ERROR == MPI_ERR_TRUNCATE) fail(MPI_ERR_TRUNCATE, "received message longer than recvcount");
    return recv.status.MPI_ERROR;
  });
}
ZMPI_ALIAS(MPI_Sendrecv)

int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                          MPI_Comm comm, MPI_Status* status) {
  return guardedComm("MPI_Sendrecv_replace", comm, [&] {
    Datatype& t = typeArg(type);
    countArg(count);
    // Send from a packed copy so the receive can land in the same buffer.
    std::vector<char> copy(static_cast<std::size_t>(count) * t.size());
    if (!copy.empty()) t.pack(buf, static_cast<std::size_t>(count), copy.data());
    Request recv(Request::Kind::Recv);
    Request send(Request::Kind::Send);
    initRecvRequest(recv, buf, count, type, source, recvtag, comm);
    initSendRequest(send, copy.data(), static_cast<int>(copy.size()), MPI_BYTE, dest, sendtag, comm,
                    SendMode::Standard);
    exchange(send, recv);
    copyStatus(status, recv.status);
    if (recv.status.MPI_ERROR == MPI_ERR_TRUNCATE) fail(MPI_ERR_TRUNCATE, "received message longer than count");
    return recv.status.MPI_ERROR;
  });
}
ZMPI_ALIAS(MPI_Sendrecv_replace)

int PMPI_Buffer_attach(void* buffer, int size) {
  return guarded("MPI_Buffer_attach", [&] {
    BsendBuffer::instance().attach(buffer, size);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Buffer_attach)

int PMPI_Buffer_detach(void* buffer, int* size) {
  return guarded("MPI_Buffer_detach", [&] {
    pointerArg(buffer, "buffer");
    pointerArg(size, "size");
    // Detach sleeps until the buffered sends are out, which may need a receiving thread.
    if (World* world = liveWorld.load(std::memory_order_acquire)) world->engine().prepareToBlock();
    BsendBuffer::instance().detach(static_cast<void**>(buffer), size);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Buffer_detach)

}  // extern "C"
