// Probes and matched probes: Probe, Iprobe, Mprobe, Improbe, Mrecv, Imrecv.
#include "mpi/capi/entry.h"
#include "mpi/capi/p2p_ops.h"
#include "mpi/capi/validate.h"
#include "mpi/core/message.h"
#include "mpi/core/world.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

void setProcNull(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_PROC_NULL;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->_cancelled = 0;
  status->_ucount = 0;
}

MatchedMessage* messageArg(MPI_Message message) {
  if (message == MPI_MESSAGE_NO_PROC) return nullptr;
  if (!isHandleOf(message, HandleKind::Message) || implOf<MatchedMessage>(message) == nullptr) {
    fail(MPI_ERR_REQUEST, "invalid message handle");
  }
  return implOf<MatchedMessage>(message);
}

// Receives a matched message into a new (started) request; frees the message.
Request* receiveMatched(void* buf, int count, MPI_Datatype type, MPI_Message* message) {
  pointerArg(message, "message");
  MatchedMessage* matched = messageArg(*message);
  if (matched == nullptr) {
    *message = MPI_MESSAGE_NULL;
    return makeProcNullRequest(Request::Kind::Recv);
  }
  Communicator& comm = matched->comm;
  std::unique_ptr<Request> request(makeRecvRequest(buf, count, type, MPI_ANY_SOURCE, MPI_ANY_TAG, comm.handle()));
  comm.world().engine().startMatchedRecv(*request, std::move(matched->message));
  delete matched;
  *message = MPI_MESSAGE_NULL;
  return request.release();
}

}  // namespace

extern "C" {

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return guardedComm("MPI_Iprobe", comm, [&] {
    Communicator& c = commArg(comm);
    sourceArg(c, source);
    recvTagArg(tag);
    pointerArg(flag, "flag");
    if (source == MPI_PROC_NULL) {
      *flag = 1;
      setProcNull(status);
      return MPI_SUCCESS;
    }
    *flag = c.world().engine().iprobe(c.p2pContext(), source, tag, status);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Iprobe)

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return guardedComm("MPI_Probe", comm, [&] {
    Communicator& c = commArg(comm);
    sourceArg(c, source);
    recvTagArg(tag);
    if (source == MPI_PROC_NULL) {
      setProcNull(status);
      return MPI_SUCCESS;
    }
    c.world().engine().probe(c.p2pContext(), source, tag, status, c.worldRankOfSource(source));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Probe)

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  return guardedComm("MPI_Improbe", comm, [&] {
    Communicator& c = commArg(comm);
    sourceArg(c, source);
    recvTagArg(tag);
    pointerArg(flag, "flag");
    pointerArg(message, "message");
    if (source == MPI_PROC_NULL) {
      *flag = 1;
      *message = MPI_MESSAGE_NO_PROC;
      setProcNull(status);
      return MPI_SUCCESS;
    }
    auto incoming = c.world().engine().improbe(c.p2pContext(), source, tag, status);
    *flag = incoming != nullptr;
    if (incoming) *message = (new MatchedMessage(c, std::move(incoming)))->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Improbe)

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  return guardedComm("MPI_Mprobe", comm, [&] {
    Communicator& c = commArg(comm);
    sourceArg(c, source);
    recvTagArg(tag);
    pointerArg(message, "message");
    if (source == MPI_PROC_NULL) {
      *message = MPI_MESSAGE_NO_PROC;
      setProcNull(status);
      return MPI_SUCCESS;
    }
    auto incoming = c.world().engine().mprobe(c.p2pContext(), source, tag, status, c.worldRankOfSource(source));
    *message = (new MatchedMessage(c, std::move(incoming)))->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Mprobe)

int PMPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  return guarded("MPI_Mrecv", [&] {
    std::unique_ptr<Request> request(receiveMatched(buf, count, type, message));
    waitRequest(*request);
    copyStatus(status, request->status);
    if (request->status.MPI_ERROR == MPI_ERR_TRUNCATE) fail(MPI_ERR_TRUNCATE, "message longer than the buffer");
    return request->status.MPI_ERROR;
  });
}
ZMPI_ALIAS(MPI_Mrecv)

int PMPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* out) {
  return guarded("MPI_Imrecv", [&] {
    requestPointerArg(out);
    *out = receiveMatched(buf, count, type, message)->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Imrecv)

}  // extern "C"
