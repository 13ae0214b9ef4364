#pragma once
// The network as the MPI engine sees it: send a wire message to a world rank, receive the
// next message addressed to this rank, wake a blocked receive. Two implementations: the
// zmq fabric (real sockets) and the mock fabric (in-process, recording every send, for
// tests that assert exactly which messages a collective sends, to whom, in which order).
#include <chrono>
#include <optional>

#include "transport/wire.h"

namespace zmpi::mpi {

class Fabric {
 public:
  virtual ~Fabric() = default;
  virtual void send(int worldRank, const transport::WireHeader& header, zmq::message_t&& payload) = 0;
  // Only the progress thread calls receive(). Returns nullopt on timeout or wake().
  virtual std::optional<transport::WireMessage> receive(std::chrono::milliseconds timeout) = 0;
  virtual void wake() = 0;
  // Stops sending and receiving; called once, after the last message, before destruction.
  virtual void close() = 0;
};

}  // namespace zmpi::mpi
