#pragma once
// A background thread that serves zmq sockets until it is told to stop: the body gets the
// receiving end of an inproc PAIR channel to poll beside its own sockets, and stop() (or
// the destructor) sends one message on it and joins. Used by the rendezvous server and the
// ZAP authenticator; zmq sockets stay on the one thread that uses them.
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "transport/socket.h"

namespace zmpi::transport {

// "inproc://zmpi-<what>-<n>", unique in the process.
std::string uniqueInprocName(const std::string& what);

class ServiceThread {
 public:
  ServiceThread() = default;
  ServiceThread(const ServiceThread&) = delete;
  ServiceThread& operator=(const ServiceThread&) = delete;
  // stop() throws only if the inproc PAIR it owns fails: a broken process, std::terminate is the end.
  ~ServiceThread() { stop(); }  // NOLINT(bugprone-exception-escape)

  // Runs body(Socket control) on a new thread; `control` turns readable once stop() is
  // called. A template rather than std::function: bodies capture move-only sockets.
  template <typename Body>
  void start(Body body) {
    Socket control(zmq::socket_type::pair);
    const std::string endpoint = control.bind(uniqueInprocName("stop"));
    stopper_ = std::make_unique<Socket>(zmq::socket_type::pair);
    stopper_->connect(endpoint);
    thread_ = std::thread([b = std::move(body), c = std::move(control)]() mutable { b(std::move(c)); });
  }

  // Idempotent; returns once the body has returned.
  void stop();

 private:
  std::unique_ptr<Socket> stopper_;
  std::thread thread_;
};

}  // namespace zmpi::transport
