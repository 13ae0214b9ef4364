// Worlds over real sockets, several ranks as threads of this test process: the bootstrap
// (bind, report, explicit broadcast of the table), the per-pair paths, and traffic.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "mpi/core/cpu_binding.h"
#include "mpi/core/error.h"
#include "mpi/core/fabric.h"
#include "socket_worlds.h"
#include "transport/socket.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;
using namespace std::chrono_literals;

namespace {

void runSocketWorlds(int size, const std::vector<std::string>& hosts, const std::function<void(World&)>& body) {
  zmpi::transport::ContextOwner context;
  runSocketJob("sockets-test-" + std::to_string(::getpid()), size, hosts, nullptr, body);
}

// The largest message of the traffic checks, sent in pieces (Fabric::dataPieceBytes) over
// tcp and ipc. Under ThreadSanitizer every byte uninstrumented libzmq copies costs a
// (suppressed) report -- 3 MiB per pair took 60-110 s per path -- so there the pieces and
// the eager limit shrink (set before any world reads them) and so does the message.
size_t largeMessageBytes() {
#if defined(__SANITIZE_THREAD__)
  ::setenv("ZMPI_TCP_EAGER_LIMIT", "4096", 1);
  ::setenv("ZMPI_TCP_PIECE_BYTES", "16384", 1);
  return 3 * 16384 + 5;
#else
  return 3 * 1024 * 1024 + 5;
#endif
}

}  // namespace

TEST_CASE("ranks learn every peer's host from the creator's broadcast and pick a path per pair", "[world][sockets]") {
  // Ranks 0,1 claim host "a", rank 2 host "b": same-host pairs use shared memory (or ipc,
  // or tcp when ZMPI_TRANSPORT caps the choice), the others tcp.
  std::string expectedLocal = GENERATE(std::string("shm"), std::string("ipc"), std::string("tcp"));
  ::setenv("ZMPI_TRANSPORT", expectedLocal.c_str(), 1);
  const size_t kPiecesBytes = largeMessageBytes();
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
    // The largest goes in pieces (Fabric::dataPieceBytes) over tcp and ipc.
    for (size_t bytes : {size_t{8}, size_t{300000}, kPiecesBytes}) {
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

TEST_CASE("closing waits for a same-host peer's doorbell no longer than the peer's own recheck", "[world][sockets]") {
  // The zmq socket to a same-host peer carries only doorbells; a rank whose peer exited
  // first waited the whole linger (1 s) for one that could never be delivered. Data sockets
  // (ipc, tcp) keep the full linger: what they hold must arrive.
  std::string local = GENERATE(std::string("shm"), std::string("ipc"));
  ::setenv("ZMPI_TRANSPORT", local.c_str(), 1);
  const auto fullLinger = zmpi::transport::SocketOptions::defaultLinger();
  REQUIRE(fullLinger > kRingRecheck);
  runSocketWorlds(3, {"a", "a", "b"}, [&](World& world) {
    if (world.rank() != 0) return;
    RANK_CHECK(world.pathTo(1) == local);
    if (local == "shm") {
      RANK_CHECK(world.closingLingerTo(1) <= kRingRecheck);
    } else {
      RANK_CHECK(world.closingLingerTo(1) == fullLinger);
    }
    RANK_CHECK(world.closingLingerTo(2) == fullLinger);
  });
  ::unsetenv("ZMPI_TRANSPORT");
}

TEST_CASE("a spin leaves the CPU to the fabric's threads when some peer is reached over zmq", "[world][sockets]") {
  // Two ranks on one host of at least 2 CPUs: over shared memory the waiting thread polls
  // the rings itself and spins hot; over tcp or ipc the message needs zmq's I/O thread and
  // the progress thread, so the spin yields.
  if (cpusAllowedAtStart() < 2) {
    WARN("skipped: needs 2 CPUs");
    return;
  }
  ::unsetenv("ZMPI_YIELD_WHEN_IDLE");
  std::string path = GENERATE(std::string("shm"), std::string("ipc"), std::string("tcp"));
  ::setenv("ZMPI_TRANSPORT", path.c_str(), 1);
  runSocketWorlds(2, {"a", "a"}, [&](World& world) {
    RANK_CHECK(world.pathTo(1 - world.rank()) == path);
    RANK_CHECK((world.engine().pollsPerYield() == 1) == (path != "shm"));
    // Without a same-host peer nothing is polled for: a waiting thread blocks at once.
    RANK_CHECK((world.engine().spinTime().count() == 0) == (path != "shm"));
  });
  ::unsetenv("ZMPI_TRANSPORT");
}

TEST_CASE("waits spin longer on an oversubscribed host, unless ZMPI_SPIN_US names a spin", "[world][sockets]") {
  // One rank more than this process may use CPUs: every rank yields at each look, and a
  // message that comes within the longer spin needs no wake-up.
  const int cpus = cpusAllowedAtStart();
  if (cpus + 1 > 9) {
    WARN("skipped: oversubscribing " << cpus << " CPUs takes too many rank threads");
    return;
  }
  ::unsetenv("ZMPI_TRANSPORT");
  const bool named = GENERATE(false, true);
  if (named) ::setenv("ZMPI_SPIN_US", "70", 1);
  runSocketWorlds(cpus + 1, std::vector<std::string>(static_cast<size_t>(cpus + 1), "a"), [&](World& world) {
    RANK_CHECK(world.engine().spinTime() == (named ? 70us : Engine::kOversubscribedSpin));
    RANK_CHECK(world.engine().pollsPerYield() == 1);
  });
  if (cpus >= 2) {  // not oversubscribed: the default spin
    runSocketWorlds(2, {"a", "a"},
                    [&](World& world) { RANK_CHECK(world.engine().spinTime() == (named ? 70us : 50us)); });
  }
  ::unsetenv("ZMPI_SPIN_US");
}

TEST_CASE("a rank with same-host and remote peers spins only while it waits on a same-host one", "[world][sockets]") {
  // Ranks 0 and 2 on host "a" (shared memory between them), rank 1 on "b" (tcp). A spin
  // polls only the rings; a remote message needs the progress thread, which a spinning
  // (yielding) thread keeps from the CPU when the host is busy.
  ::unsetenv("ZMPI_TRANSPORT");
  const bool named = GENERATE(false, true);
  if (named) ::setenv("ZMPI_SPIN_US", "50", 1);
  // Rank 0's engine and its spin count before the wait, for rank 1 (a thread of this process).
  std::atomic<Engine*> waiter{nullptr};
  std::atomic<uint64_t> waiterSpinsBefore{0};
  runSocketWorlds(3, {"a", "b", "a"}, [&](World& world) {
    Engine& engine = world.engine();
    // Rank 0 posts a receive from rank 1, then tells rank 1 to send, and waits: it spins
    // only if the spin is named. With the spin named, rank 1 replies only once rank 0's
    // spin has begun (or ended), so that a rank 0 descheduled between its send and its
    // wait (a loaded CI machine) cannot find the reply already there and never spin.
    // (The exchange comes before any check: a rank whose check throws leaves the job.)
    char byte = 0;
    uint64_t spinsBefore = 0;
    if (world.rank() == 0) {
      auto request = makeRequest(world, Request::Kind::Recv, &byte, 1, 1, 5);
      engine.startRecv(*request);
      spinsBefore = engine.pollRegistration().spinsEnded();
      waiterSpinsBefore.store(spinsBefore);
      waiter.store(&engine);
      sendBytes(world, 1, 4, &byte, 1);
      engine.wait(*request);
    } else if (world.rank() == 1) {
      recvBytes(world, 0, 4, &byte, 1);
      if (named) {  // bounded: a wait that never spins fails the check below, not the job
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        const auto waiting = [&] {
          Engine* rank0 = waiter.load();  // stored before rank 0's message to us
          return rank0 == nullptr || (!rank0->pollRegistration().userSpinning() &&
                                      rank0->pollRegistration().spinsEnded() == waiterSpinsBefore.load());
        };
        while (waiting() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
      }
      byte = 'r';
      sendBytes(world, 0, 5, &byte, 1);
    }
    if (world.rank() == 1) {
      RANK_CHECK(engine.spinsFor(0) == named);  // no same-host peer: no spin unless named
      RANK_CHECK(engine.spinsFor(-1) == named);
      return;
    }
    const int local = 2 - world.rank();
    RANK_CHECK(world.pathTo(local) == "shm" && world.pathTo(1) == "tcp");
    RANK_CHECK(engine.spinsFor(local));
    RANK_CHECK(engine.spinsFor(-1));  // MPI_ANY_SOURCE: a same-host peer may send
    RANK_CHECK(engine.spinsFor(1) == named);
    RANK_CHECK(engine.spinsAfterZmqTraffic() == named);
    if (world.rank() == 0) {
      RANK_CHECK(byte == 'r');
      RANK_CHECK((engine.pollRegistration().spinsEnded() != spinsBefore) == named);
    }
  });
  ::unsetenv("ZMPI_SPIN_US");
}

TEST_CASE("a waiting thread whose peers are all on its host sleeps on its rings, woken by the sender",
          "[world][sockets]") {
  // No spin (ZMPI_SPIN_US=0): rank 0's wait goes to sleep at once. Rank 1 sends only once
  // it sees rank 0's thread asleep on the rings; its write must wake that thread itself --
  // one futex call, no doorbell through zmq to rank 0's progress thread.
  ::unsetenv("ZMPI_TRANSPORT");
  ::setenv("ZMPI_SPIN_US", "0", 1);
  std::atomic<World*> receiver{nullptr};
  runSocketWorlds(2, {"a", "a"}, [&](World& world) {
    RANK_CHECK(world.pathTo(1 - world.rank()) == "shm");
    RANK_CHECK(world.engine().sleepsOnRings());
    char byte = 0;
    if (world.rank() == 0) {
      auto request = makeRequest(world, Request::Kind::Recv, &byte, 1, 1, 7);
      world.engine().startRecv(*request);
      receiver.store(&world);
      world.engine().wait(*request);
      RANK_CHECK(byte == 's');
      return;
    }
    // Bounded: a wait that never sleeps on the rings fails the check below, not the job.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    auto asleep = [&] {
      World* rank0 = receiver.load();
      return rank0 != nullptr && rank0->ringSleepers() > 0;
    };
    while (!asleep() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    const bool sawSleeper = asleep();
    const uint64_t doorbellsBefore = world.doorbellsRung();
    byte = 's';
    sendBytes(world, 0, 7, &byte, 1);
    RANK_CHECK(sawSleeper);
    RANK_CHECK(world.doorbellsRung() == doorbellsBefore);
  });
  ::unsetenv("ZMPI_SPIN_US");
}

TEST_CASE("a thread waiting on an exchange writes the fragments its sends left queued for a full ring",
          "[world][sockets]") {
  // Two same-host ranks each send a message 16 rings long to the other and wait on both.
  // While a user thread spins, its progress thread leaves the rings -- and the outboxes --
  // to it; so the spin itself must write the rest of its message as the peer drains: the
  // spin (10 s) ends with both done, not by timing out. (Without single copy: through the
  // rings.)
  ::unsetenv("ZMPI_TRANSPORT");
  ::setenv("ZMPI_SINGLE_COPY", "0", 1);
  ::setenv("ZMPI_SHM_RING_BYTES", "65536", 1);
  ::setenv("ZMPI_SPIN_US", "10000000", 1);
  constexpr size_t kBytes = 16 * 65536 + 3;
  runSocketWorlds(2, {"a", "a"}, [&](World& world) {
    const int peer = 1 - world.rank();
    std::vector<char> out(kBytes, static_cast<char>('a' + world.rank()));
    std::vector<char> in(kBytes);
    auto recv = makeRequest(world, Request::Kind::Recv, in.data(), kBytes, peer, 3);
    auto send = makeRequest(world, Request::Kind::Send, out.data(), kBytes, peer, 3);
    Engine& engine = world.engine();
    engine.startRecv(*recv);
    engine.startSend(*send);
    const bool inSpin = engine.spinUntil([&] { return recv->done.load() && send->done.load(); });
    engine.wait(*recv);
    engine.wait(*send);
    RANK_CHECK(world.pathTo(peer) == "shm");
    RANK_CHECK(inSpin);
    RANK_CHECK(in.front() == 'a' + peer && in.back() == 'a' + peer);
  });
  ::unsetenv("ZMPI_SPIN_US");
  ::unsetenv("ZMPI_SHM_RING_BYTES");
  ::unsetenv("ZMPI_SINGLE_COPY");
}

TEST_CASE("same-host peers read each other's large messages directly with ZMPI_SINGLE_COPY=1", "[world][sockets]") {
  // Ranks 0 and 1 share host a, rank 2 is on b. Each sends rank 0 a message far above the
  // eager limit; rank 0 reads rank 1's from its memory (all ranks are threads of this
  // process: its pid), rank 2's comes over tcp.
  ::unsetenv("ZMPI_TRANSPORT");
  constexpr size_t kBytes = (1 << 20) + 5;
  for (const char* setting : {"1", "0"}) {
    INFO("ZMPI_SINGLE_COPY=" << setting);
    ::setenv("ZMPI_SINGLE_COPY", setting, 1);
    const bool on = setting[0] == '1';
    runSocketWorlds(3, {"a", "a", "b"}, [&](World& world) {
      if (world.rank() != 0) {
        RANK_CHECK(world.singleCopyPid(0) == (on && world.rank() == 1 ? ::getpid() : 0));
        std::vector<char> out(kBytes, static_cast<char>('a' + world.rank()));
        sendBytes(world, 0, 7, out.data(), kBytes);
        return;
      }
      RANK_CHECK(world.singleCopyPid(1) == (on ? ::getpid() : 0));
      RANK_CHECK(world.singleCopyPid(2) == 0);
      for (int source : {1, 2}) {
        std::vector<char> in(kBytes);
        const MPI_Status status = recvBytes(world, source, 7, in.data(), kBytes);
        RANK_CHECK(status._ucount == kBytes);
        RANK_CHECK(std::count(in.begin(), in.end(), static_cast<char>('a' + source)) == static_cast<long>(kBytes));
      }
    });
  }
  ::unsetenv("ZMPI_SINGLE_COPY");
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

TEST_CASE("worlds of two authenticated jobs live in one process", "[world][sockets][link]") {
  // Each job has its own secret, hence its own ZAP domain in the process's one ZAP
  // handler; job A authenticates (PLAIN), job B authenticates or encrypts (CURVE). Every
  // link goes over tcp, so every message passes an authenticated connection.
  const bool encryptB = GENERATE(false, true);
  INFO("job B " << (encryptB ? "encrypted" : "authenticated"));
  ::setenv("ZMPI_TRANSPORT", "tcp", 1);
  zmpi::transport::ContextOwner context;
  const auto keysA = zmpi::transport::deriveLinkKeys("job A's secret for the world test", false);
  const auto keysB = zmpi::transport::deriveLinkKeys("job B's secret for the world test", encryptB);
  const size_t large = largeMessageBytes();
  auto body = [large](World& world) {
    RANK_CHECK(world.pathTo(1 - world.rank()) == "tcp");
    // The largest goes in pieces (Fabric::dataPieceBytes) over tcp and ipc.
    for (size_t bytes : {size_t{8}, size_t{300000}, large}) {
      std::vector<char> out(bytes, static_cast<char>('0' + world.rank()));
      std::vector<char> in(bytes);
      auto receive = makeRequest(world, Request::Kind::Recv, in.data(), bytes, 1 - world.rank(), 5);
      auto send = makeRequest(world, Request::Kind::Send, out.data(), bytes, 1 - world.rank(), 5);
      world.engine().startRecv(*receive);
      world.engine().startSend(*send);
      world.engine().wait(*send);
      world.engine().wait(*receive);
      RANK_CHECK(in.front() == '0' + (1 - world.rank()));
      RANK_CHECK(in.back() == '0' + (1 - world.rank()));
    }
  };
  const std::string suffix = std::to_string(::getpid());
  std::exception_ptr errorB;
  std::thread jobB([&] {
    try {
      runSocketJob("two-jobs-b-" + suffix, 2, {"h", "h"}, keysB, body);
    } catch (...) {
      errorB = std::current_exception();
    }
  });
  std::exception_ptr errorA;
  try {
    runSocketJob("two-jobs-a-" + suffix, 2, {"h", "h"}, keysA, body);
  } catch (...) {
    errorA = std::current_exception();
  }
  jobB.join();
  ::unsetenv("ZMPI_TRANSPORT");
  if (errorA) std::rethrow_exception(errorA);
  if (errorB) std::rethrow_exception(errorB);
}
