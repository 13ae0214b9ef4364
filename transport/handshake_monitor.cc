#include "transport/handshake_monitor.h"

#include <cstring>
#include <vector>
#include <zmq_addon.hpp>

#include "transport/errors.h"
#include "transport/log.h"
#include "transport/service_thread.h"
#include "transport/tsan_annotations.h"

namespace zmpi::transport {
namespace {

constexpr int kRefusals =
    ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH;

const char* describe(uint16_t event) {
  switch (event) {
    case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
      return "authentication refused";
    case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
      return "protocol error (not a peer of this job)";
    default:
      return "handshake failed";
  }
}

}  // namespace

HandshakeMonitor::HandshakeMonitor(Socket& socket, std::string label)
    : events_(zmq::socket_type::pair), label_(std::move(label)) {
  const std::string endpoint = uniqueInprocName("handshake-monitor");
  checked("monitor", endpoint, [&] {
    if (zmq_socket_monitor(socket.raw().handle(), endpoint.c_str(), kRefusals) != 0) throw zmq::error_t();
  });
  events_.connect(endpoint);
}

void HandshakeMonitor::drain() {
  for (;;) {
    std::vector<zmq::message_t> frames;
    if (!zmqRecvMultipart(events_.raw(), std::back_inserter(frames), zmq::recv_flags::dontwait)) return;
    if (frames.size() != 2 || frames[0].size() < sizeof(uint16_t)) continue;
    uint16_t event;
    std::memcpy(&event, frames[0].data(), sizeof event);
    const uint64_t n = refused_.fetch_add(1) + 1;
    log::get("transport")
        ->log(log::rejectLevel(n), "{}refused a connection on {} ({} so far): {}", label_, frames[1].to_string(), n,
              describe(event));
  }
}

}  // namespace zmpi::transport
