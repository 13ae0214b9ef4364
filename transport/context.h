#pragma once
// The one zmq context of a process (transport rule 1). A ContextOwner is created in main()
// or MPI_Init and destroyed in MPI_Finalize; every socket must be gone before it closes,
// which close() checks by counting the sockets the transport layer has open.
#include <atomic>

#include <zmq.hpp>

namespace zmpi::transport {

class ContextOwner {
 public:
  ContextOwner();
  ~ContextOwner();
  ContextOwner(const ContextOwner&) = delete;
  ContextOwner& operator=(const ContextOwner&) = delete;

  // Closes the context explicitly; the destructor calls it if nobody did.
  void close();

  // The context of the live owner; throws TransportError if there is none.
  static zmq::context_t& context();
  static bool isOpen();

 private:
  zmq::context_t context_;
  bool closed_ = false;
};

// Sockets register themselves so that closing the context with sockets alive is a loud
// error instead of a hang.
void noteSocketOpened();
void noteSocketClosed();
int openSocketCount();

}  // namespace zmpi::transport
