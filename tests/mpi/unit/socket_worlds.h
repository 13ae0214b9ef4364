#pragma once
// Test helpers: real worlds (zmq inboxes, a rendezvous server, shared-memory mailboxes, bulk
// connections) run as threads of this process.
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "mock_world.h"
#include "transport/context.h"
#include "transport/link_security.h"
#include "transport/rendezvous.h"

// Catch2's assertions are not thread-safe: the rank threads throw instead, and the runners
// below rethrow the first failure on the test's own thread.
#define RANK_CHECK(condition)                                                                    \
  do {                                                                                           \
    if (!(condition)) throw std::runtime_error(std::string("rank check failed: ") + #condition); \
  } while (false)

namespace zmpi::mpi::testing {

// Sets ZMPI_TRANSPORT=tcp and ZMPI_TCP_BULK=1 for its lifetime (worlds read them at start).
struct ForcedTcp {
  // `smallOnBulk` false: small messages stay on zmq (ZMPI_BULK_SMALL=0), where waiting
  // threads receive them from the inbox themselves (receive_lease.h).
  explicit ForcedTcp(bool smallOnBulk = true) {
    ::setenv("ZMPI_TRANSPORT", "tcp", 1);
    ::setenv("ZMPI_TCP_BULK", "1", 1);
    ::setenv("ZMPI_BULK_SMALL", smallOnBulk ? "1" : "0", 1);
  }
  ~ForcedTcp() {
    ::unsetenv("ZMPI_TRANSPORT");
    ::unsetenv("ZMPI_TCP_BULK");
    ::unsetenv("ZMPI_BULK_SMALL");
  }
  ForcedTcp(const ForcedTcp&) = delete;
  ForcedTcp& operator=(const ForcedTcp&) = delete;
};

// One job of `size` ranks as threads, rank r claiming host hosts[r]; with `keys`, every link
// is authenticated (or encrypted) as under zmpirun, the rendezvous included. The caller
// owns the zmq context (transport::ContextOwner).
inline void runSocketJob(const std::string& jobId, int size, const std::vector<std::string>& hosts,
                         const std::shared_ptr<const transport::LinkKeys>& keys,
                         const std::function<void(World&)>& body) {
  std::optional<transport::ZapAuthenticator> zap;
  if (keys) zap.emplace(keys);
  transport::RendezvousServer server("tcp://127.0.0.1:*", transport::jobHashOf(jobId), size, std::chrono::seconds(10),
                                     {}, {}, keys);
  runWorldThreads(
      size,
      [&](WorldConfig& config) {
        config.jobId = jobId;
        config.rendezvous = server.endpoint();
        config.host = hosts[static_cast<size_t>(config.rank)];
        config.linkKeys = keys;
      },
      body);  // the server stops when it goes, after every rank
}

// Runs body(world, rank) on two ranks of job `jobName` reaching each other over tcp (the
// caller forces it: ForcedTcp), authenticated with `keys` if given (then rendezvous payloads
// take the bulk connections).
template <typename Body>
void runTcpWorlds(const std::string& jobName, const std::shared_ptr<const transport::LinkKeys>& keys, Body body) {
  transport::ContextOwner context;
  runSocketJob(jobName + "-" + std::to_string(::getpid()), 2, {"a", "a"}, keys, [&](World& world) {
    RANK_CHECK(world.pathTo(1 - world.rank()) == "tcp");
    body(world, world.rank());
  });
}

}  // namespace zmpi::mpi::testing
