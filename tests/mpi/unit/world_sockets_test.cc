// Worlds over real sockets, several ranks as threads of this test process: the bootstrap
// (bind, report, explicit broadcast of the table), the per-pair paths, and traffic.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <thread>

#include "mock_world.h"
#include "mpi/core/error.h"
#include "transport/context.h"
#include "transport/rendezvous.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;
using namespace std::chrono_literals;

namespace {

void runSocketWorlds(int size, const std::vector<std::string>& hosts, const std::function<void(World&)>& body) {
  zmpi::transport::ContextOwner context;
  const std::string jobId = "sockets-test-" + std::to_string(::getpid());
  zmpi::transport::RendezvousServer server("tcp://127.0.0.1:*", zmpi::transport::jobHashOf(jobId), size, 10s);
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(static_cast<size_t>(size));
  for (int rank = 0; rank < size; ++rank) {
    threads.emplace_back([&, rank] {
      try {
        WorldConfig config;
        config.rank = rank;
        config.size = size;
        config.jobId = jobId;
        config.rendezvous = server.endpoint();
        config.host = hosts[static_cast<size_t>(rank)];
        World world(config);
        body(world);
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

// Catch2's assertions are not thread-safe: the rank threads throw instead, and
// runSocketWorlds rethrows the first failure on the test's own thread.
#define RANK_CHECK(condition)                                                                    \
  do {                                                                                           \
    if (!(condition)) throw std::runtime_error(std::string("rank check failed: ") + #condition); \
  } while (false)

}  // namespace

TEST_CASE("ranks learn every peer's host from the creator's broadcast and pick a path per pair", "[world][sockets]") {
  // Ranks 0,1 claim host "a", rank 2 host "b": same-host pairs use shared memory (or ipc,
  // or tcp when ZMPI_TRANSPORT caps the choice), the others tcp.
  std::string expectedLocal = GENERATE(std::string("shm"), std::string("ipc"), std::string("tcp"));
  ::setenv("ZMPI_TRANSPORT", expectedLocal.c_str(), 1);
  runSocketWorlds(3, {"a", "a", "b"}, [&](World& world) {
    RANK_CHECK(world.hostOf(0) == "a");
    RANK_CHECK(world.hostOf(2) == "b");
    RANK_CHECK(world.pathTo(world.rank()) == "self");
    if (world.rank() == 0) {
      RANK_CHECK(world.pathTo(1) == expectedLocal);
      RANK_CHECK(world.pathTo(2) == "tcp");
    }
    if (world.rank() == 2) RANK_CHECK(world.pathTo(0) == "tcp");
    // Everyone sends to everyone, small and large, over whatever path was chosen.
    for (size_t bytes : {size_t{8}, size_t{300000}}) {
      std::vector<std::vector<char>> in(3, std::vector<char>(bytes));
      std::vector<std::unique_ptr<Request>> requests;
      std::vector<char> out(bytes, static_cast<char>('0' + world.rank()));
      for (int peer = 0; peer < 3; ++peer) {
        requests.push_back(
            makeRequest(world, Request::Kind::Recv, in[static_cast<size_t>(peer)].data(), bytes, peer, 9));
        world.engine().startRecv(*requests.back());
      }
      for (int peer = 0; peer < 3; ++peer) {
        requests.push_back(makeRequest(world, Request::Kind::Send, out.data(), bytes, peer, 9));
        world.engine().startSend(*requests.back());
      }
      for (auto& request : requests) world.engine().wait(*request);
      for (int peer = 0; peer < 3; ++peer) {
        RANK_CHECK(in[static_cast<size_t>(peer)].front() == '0' + peer);
        RANK_CHECK(in[static_cast<size_t>(peer)].back() == '0' + peer);
      }
    }
  });
  ::unsetenv("ZMPI_TRANSPORT");
}

TEST_CASE("a world whose peers never come fails at start-up naming the missing ranks", "[world][sockets]") {
  zmpi::transport::ContextOwner context;
  const std::string jobId = "missing-peers-test";
  WorldConfig config;
  config.rank = 0;
  config.size = 3;
  config.jobId = jobId;
  config.rendezvous = "tcp://127.0.0.1:*";
  config.hostRendezvous = true;
  config.startupTimeout = 300ms;
  // Rank 0 hosts the rendezvous on a wildcard port nobody else knows: ranks 1 and 2 never come.
  try {
    World world(config);
    FAIL("the world formed without its peers");
  } catch (const MpiError& error) {
    INFO(error.what());
    CHECK(std::string(error.what()).find("1,2") != std::string::npos);
  }
}
