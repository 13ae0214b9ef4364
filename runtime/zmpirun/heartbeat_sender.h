#pragma once
// Heartbeats from zmpirun to its agents, from a thread of their own with sockets of their
// own: the job monitor's loop can block for a while writing output (zmpirun's stdout piped
// into a pager that is not being read), and that must not look to the agents as if
// zmpirun had died. Each heartbeat is signed and carries the session id and its own
// growing counter; the agents treat silence longer than the heartbeat timeout as
// zmpirun's death and end the job's ranks.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/common/agent_codec.h"

namespace zmpi::runtime {

class HeartbeatSender {
 public:
  HeartbeatSender(const AgentCodec& codec, std::chrono::milliseconds interval);
  ~HeartbeatSender();  // stops the thread; its sockets are closed before it returns
  HeartbeatSender(const HeartbeatSender&) = delete;
  HeartbeatSender& operator=(const HeartbeatSender&) = delete;

  // Every session to keep alive, then start() once.
  void add(const std::string& endpoint, const std::string& session);
  void start();
  void stop();

 private:
  struct Target {
    std::string endpoint;
    std::string session;
  };
  void run();

  const AgentCodec& codec_;
  std::chrono::milliseconds interval_;
  std::vector<Target> targets_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace zmpi::runtime
