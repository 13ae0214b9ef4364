#pragma once
// MPI_Message: a message taken off the unexpected queue by MPI_Mprobe/MPI_Improbe, waiting
// for MPI_Mrecv/MPI_Imrecv. No other receive can match it any more.
#include <memory>

#include <mpi.h>

#include "mpi/core/engine.h"
#include "mpi/core/handle.h"

namespace zmpi::mpi {

class Communicator;

class MatchedMessage {
 public:
  MatchedMessage(Communicator& comm, std::unique_ptr<IncomingMessage> message)
      : comm(comm), message(std::move(message)) {
    bindHandle(&handle_, HandleKind::Message, this);
  }
  ~MatchedMessage() { retireHandle(handle_.header); }
  MPI_Message handle() { return &handle_; }

  Communicator& comm;
  std::unique_ptr<IncomingMessage> message;

 private:
  ompi_message_t handle_;
};

}  // namespace zmpi::mpi
