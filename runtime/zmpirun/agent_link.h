#pragma once
// zmpirun's connection to one zmpid agent for one job: a DEALER socket held for the whole
// job, the session id that names the job on that agent, and a zmq socket monitor that
// reports the connection's fate (connected, refused, closed). The monitor is what lets
// zmpirun say *why* an agent does not answer, and notice at once when an agent dies.
#include <chrono>
#include <optional>
#include <string>

#include "runtime/common/agent_codec.h"
#include "runtime/zmpirun/job_network.h"
#include "transport/socket.h"

namespace zmpi::runtime {

class AgentLink {
 public:
  AgentLink(AgentTarget target, const AgentCodec& codec);
  ~AgentLink();
  AgentLink(const AgentLink&) = delete;
  AgentLink& operator=(const AgentLink&) = delete;

  // Signs and queues `message` with this session's id and the next sequence number.
  // False if it could not be queued (the agent is unreachable and the queue is full).
  bool send(proto::AgentMessage&& message);
  // The next message from the agent, verified (signature, session, growing sequence);
  // nullopt when none is waiting. Throws AgentProtocolError for one that fails a check.
  std::optional<OpenedMessage> receive();
  // Reads the monitor's events; returns true if the connection closed since last asked.
  bool pollConnection();

  zmq::socket_t& socket() { return dealer_.raw(); }
  zmq::socket_t& monitor() { return monitor_.raw(); }
  const AgentTarget& target() const { return target_; }
  const std::string& session() const { return session_; }
  std::string endpoint() const;

  // Why no answer came, from what the monitor saw (for a start-up timeout).
  std::string describeSilence(std::chrono::milliseconds waited) const;

 private:
  AgentTarget target_;
  const AgentCodec& codec_;
  std::string session_;
  transport::Socket dealer_;
  transport::Socket monitor_;
  uint64_t sendSequence_ = 0;
  uint64_t receiveSequence_ = 0;
  bool everConnected_ = false;
  bool connectFailed_ = false;
  bool disconnected_ = false;
};

}  // namespace zmpi::runtime
