#include "runtime/zmpirun/agent_link.h"

#include <atomic>
#include <cstring>

#include "transport/errors.h"
#include "transport/tsan_annotations.h"

namespace zmpi::runtime {
namespace {

transport::SocketOptions dealerOptions() {
  transport::SocketOptions options;
  // Enough to deliver a final Signal/Finish to a live agent; a dead one costs no more.
  options.linger = std::chrono::milliseconds(500);
  options.maxMessageSize = 1 << 20;  // output pieces are 64 KiB; nothing legitimate is larger
  return options;
}

std::string monitorEndpoint() {
  static std::atomic<uint64_t> counter{0};
  return "inproc://zmpirun-agent-monitor-" + std::to_string(counter.fetch_add(1));
}

}  // namespace

AgentLink::AgentLink(AgentTarget target, const AgentCodec& codec)
    : target_(std::move(target)),
      codec_(codec),
      session_(newSessionId()),
      dealer_(zmq::socket_type::dealer, dealerOptions()),
      monitor_(zmq::socket_type::pair) {
  const std::string monitorAt = monitorEndpoint();
  const int events = ZMQ_EVENT_CONNECTED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_CONNECT_RETRIED | ZMQ_EVENT_CLOSED;
  if (zmq_socket_monitor(dealer_.raw().handle(), monitorAt.c_str(), events) != 0) {
    throw transport::TransportError("monitor the connection to " + target_.describe() + ": " +
                                    zmq_strerror(zmq_errno()));
  }
  monitor_.connect(monitorAt);
  dealer_.connect(endpoint());
}

AgentLink::~AgentLink() {
  // Stop the monitor before either socket goes, so zmq's side of the pair is closed first.
  zmq_socket_monitor(dealer_.raw().handle(), nullptr, 0);
}

std::string AgentLink::endpoint() const { return "tcp://" + target_.address + ":" + std::to_string(target_.port); }

bool AgentLink::send(proto::AgentMessage&& message) {
  message.set_session(session_);
  message.set_sequence(++sendSequence_);
  message.set_timestamp_ms(wallClockMs());
  return sendAgentMessage(dealer_.raw(), endpoint(), codec_.seal(message));
}

std::optional<OpenedMessage> AgentLink::receive() {
  auto wire = receiveAgentMessage(dealer_.raw(), endpoint());
  if (!wire) return std::nullopt;
  OpenedMessage opened = codec_.open(*wire);
  if (opened.message.session() != session_) throw AgentProtocolError("message for another session");
  if (opened.authenticated) {
    if (opened.message.sequence() <= receiveSequence_) throw AgentProtocolError("replayed or reordered message");
    receiveSequence_ = opened.message.sequence();
  }
  return opened;
}

bool AgentLink::pollConnection() {
  bool closed = false;
  for (;;) {
    zmq::message_t event;
    if (!transport::zmqRecv(monitor_.raw(), event, zmq::recv_flags::dontwait)) break;
    uint16_t kind = 0;
    if (event.size() >= sizeof kind) std::memcpy(&kind, event.data(), sizeof kind);
    while (event.more()) {  // the endpoint frame
      zmq::message_t rest;
      if (!transport::zmqRecv(monitor_.raw(), rest, zmq::recv_flags::dontwait)) break;
      event = std::move(rest);
    }
    switch (kind) {
      case ZMQ_EVENT_CONNECTED:
        everConnected_ = true;
        break;
      case ZMQ_EVENT_CONNECT_RETRIED:
        connectFailed_ = true;
        break;
      case ZMQ_EVENT_DISCONNECTED:
      case ZMQ_EVENT_CLOSED:
        if (everConnected_) {
          disconnected_ = true;
          closed = true;
        }
        break;
      default:
        break;
    }
  }
  return closed;
}

std::string AgentLink::describeSilence(std::chrono::milliseconds waited) const {
  const std::string where = "zmpid on " + target_.describe();
  const std::string after = " within " + std::to_string(waited.count()) + " ms";
  if (disconnected_) {
    return "the connection to " + where + " closed without an answer (an agent of another version, or the request " +
           "was too large)";
  }
  if (everConnected_) {
    return "connected to " + target_.address + ":" + std::to_string(target_.port) + " on host '" + target_.host +
           "', but no zmpid answered" + after + " (another program on that port?)";
  }
  if (connectFailed_) {
    return "cannot connect to " + where + ": connection refused" + after +
           " (is zmpid running there, listening on that address and port?)";
  }
  return "no answer from " + where + after + ": the address is unreachable or filtered (check the address, routes " +
         "and firewall)";
}

}  // namespace zmpi::runtime
