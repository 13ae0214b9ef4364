#include "runtime/zmpirun/heartbeat_sender.h"

#include <memory>

#include "transport/log.h"
#include "transport/socket.h"

namespace zmpi::runtime {

HeartbeatSender::HeartbeatSender(const AgentCodec& codec, std::chrono::milliseconds interval)
    : codec_(codec), interval_(interval) {}

HeartbeatSender::~HeartbeatSender() { stop(); }

void HeartbeatSender::add(const std::string& endpoint, const std::string& session) {
  targets_.push_back(Target{endpoint, session});
}

void HeartbeatSender::start() {
  if (!targets_.empty()) thread_ = std::thread([this] { run(); });
}

void HeartbeatSender::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void HeartbeatSender::run() {
  transport::SocketOptions options;
  options.linger = std::chrono::milliseconds(0);  // a heartbeat not sent by now is worthless
  options.sendHighWater = 4;
  std::vector<transport::Socket> sockets;
  try {
    for (const Target& target : targets_) {
      sockets.emplace_back(zmq::socket_type::dealer, options);
      sockets.back().connect(target.endpoint);
    }
    uint64_t beat = 0;
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      ++beat;
      for (size_t i = 0; i < targets_.size(); ++i) {
        proto::AgentMessage message;
        message.set_session(targets_[i].session);
        message.set_sequence(beat);
        message.set_timestamp_ms(wallClockMs());
        message.mutable_heartbeat();
        sendAgentMessage(sockets[i].raw(), targets_[i].endpoint, codec_.seal(message));  // dropped if full
      }
      lock.lock();
      wake_.wait_for(lock, interval_, [this] { return stopping_; });
    }
  } catch (const std::exception& error) {
    log::get("runtime")->error("heartbeats to the agents stopped: {}", error.what());
  }
}

}  // namespace zmpi::runtime
