#pragma once
// Test helpers: two real worlds (zmq inboxes, rendezvous server, bulk connections) run as
// threads of this process, both claiming host "a", with every message forced onto tcp.
#include <exception>
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

// Fails the rank (its thread rethrows in the test) without Catch, which is not thread-safe.
#define RANK_CHECK(condition)                                                                    \
  do {                                                                                           \
    if (!(condition)) throw std::runtime_error(std::string("rank check failed: ") + #condition); \
  } while (false)

namespace zmpi::mpi::testing {

// Sets ZMPI_TRANSPORT=tcp and ZMPI_TCP_BULK=1 for its lifetime (worlds read them at start).
struct ForcedTcp {
  ForcedTcp() {
    ::setenv("ZMPI_TRANSPORT", "tcp", 1);
    ::setenv("ZMPI_TCP_BULK", "1", 1);
  }
  ~ForcedTcp() {
    ::unsetenv("ZMPI_TRANSPORT");
    ::unsetenv("ZMPI_TCP_BULK");
  }
  ForcedTcp(const ForcedTcp&) = delete;
  ForcedTcp& operator=(const ForcedTcp&) = delete;
};

// Runs body(world, rank) on two ranks of job `jobName` reaching each other over tcp (the
// caller forces it: ForcedTcp), authenticated with `keys` if given (then rendezvous payloads
// take the bulk connections). Exceptions in a rank are rethrown here after both end.
template <typename Body>
void runTcpWorlds(const std::string& jobName, const std::shared_ptr<const transport::LinkKeys>& keys, Body body) {
  transport::ContextOwner context;
  const std::string jobId = jobName + "-" + std::to_string(::getpid());
  std::optional<transport::ZapAuthenticator> zap;
  if (keys) zap.emplace(keys);
  transport::RendezvousServer server("tcp://127.0.0.1:*", transport::jobHashOf(jobId), 2, std::chrono::seconds(10), {},
                                     {}, keys);
  std::vector<std::exception_ptr> errors(2);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < 2; ++rank) {
    threads.emplace_back([&, rank] {
      try {
        WorldConfig config;
        config.rank = rank;
        config.size = 2;
        config.jobId = jobId;
        config.rendezvous = server.endpoint();
        config.host = "a";
        config.linkKeys = keys;
        World world(config);
        RANK_CHECK(world.pathTo(1 - rank) == "tcp");
        body(world, rank);
        world.shutdown();
      } catch (...) {
        errors[static_cast<size_t>(rank)] = std::current_exception();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  server.stop();
  for (auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace zmpi::mpi::testing
