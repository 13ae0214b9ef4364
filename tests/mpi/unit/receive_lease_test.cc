// ReceiveLease: which thread receives from a rank's inbox -- the progress thread, or a user
// thread waiting in the engine -- and, with real worlds over forced tcp (ranks are threads
// of this process) whose small messages stay on zmq (ZMPI_BULK_SMALL=0, as in encrypted
// jobs or without bulk connections), that waiting threads receive themselves and are woken
// by what other threads complete (a missed wake-up hangs here: the waiters' safety recheck
// is an hour).
#include "mpi/core/receive_lease.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <latch>
#include <optional>
#include <thread>

#include "socket_worlds.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;
using namespace std::chrono_literals;

namespace {

// A stand-in for World::progressLoop's use of the lease: lends it whenever asked, until closed.
class ProgressStandIn {
 public:
  explicit ProgressStandIn(ReceiveLease& lease) : lease_(lease), thread_([this] { run(); }) {}
  ~ProgressStandIn() {
    stop_.store(true);
    lease_.close();
    thread_.join();
  }
  ProgressStandIn(const ProgressStandIn&) = delete;
  ProgressStandIn& operator=(const ProgressStandIn&) = delete;
  // How often the lease came back to the progress side.
  int returns() const { return returns_.load(); }

 private:
  void run() {
    while (!stop_.load()) {
      if (!lease_.wanted()) {
        std::this_thread::yield();  // the progress loop looks once a round
        continue;
      }
      if (!lease_.lendAndWait()) break;
      returns_.fetch_add(1);
    }
    lease_.progressExited();
  }
  ReceiveLease& lease_;
  std::atomic<bool> stop_{false};
  std::atomic<int> returns_{0};
  std::thread thread_;
};

// A progress side that needs no waking (it polls wanted()).
const auto noWake = [] {};

}  // namespace

TEST_CASE("a free lease goes to one user thread at a time; the progress side holds it first", "[lease]") {
  ReceiveLease lease;
  CHECK_FALSE(lease.tryTake());  // the progress thread holds it from the start
  lease.progressExited();        // ... until it stops: then it lies free
  CHECK(lease.tryTake());
  CHECK_FALSE(lease.tryTake());            // held
  CHECK_FALSE(lease.takeForWait(noWake));  // a second waiter follows
  lease.release(false);
  CHECK(lease.takeForWait(noWake));
  lease.release(false);
  CHECK(lease.takes() == 2);
}

TEST_CASE("a waiting thread gets the lease from the progress thread, which takes it back when handed", "[lease]") {
  ReceiveLease lease;
  ProgressStandIn progress(lease);
  std::atomic<int> wakes{0};
  REQUIRE(lease.takeForWait([&] { wakes.fetch_add(1); }));
  CHECK(wakes.load() == 1);      // the progress thread was asked (and woken)
  CHECK_FALSE(lease.tryTake());  // ours now
  lease.release(true);           // handed back: the progress thread takes it at once
  while (progress.returns() == 0) std::this_thread::yield();
  // It lends again when asked.
  REQUIRE(lease.takeForWait([&] { wakes.fetch_add(1); }));
  CHECK(wakes.load() == 2);
  lease.release(false);
}

TEST_CASE("a lease left free after a wait goes back to the progress thread after its linger", "[lease]") {
  ReceiveLease lease;
  ProgressStandIn progress(lease);
  REQUIRE(lease.takeForWait(noWake));
  lease.release(false);  // lingers: nobody is woken
  // The parked progress thread takes it back by itself; bounded by the test's timeout.
  while (progress.returns() == 0) std::this_thread::yield();
  CHECK_FALSE(lease.tryTake());
}

TEST_CASE("closing the lease ends a parked progress thread and leaves the lease to the waiters", "[lease]") {
  ReceiveLease lease;
  std::optional<ProgressStandIn> progress(std::in_place, lease);
  REQUIRE(lease.takeForWait(noWake));  // the progress side is parked now
  progress.reset();                    // close() and join: a parked thread must not stay parked
  lease.release(false);
  CHECK(lease.takeForWait(noWake));  // nobody on the progress side: free for the taking
  lease.release(false);
}

namespace {

auto jobKeys() { return zmpi::transport::deriveLinkKeys("a job secret for the lease test", false); }

// A round trip of `bytes` from rank 0 to rank 1 and back, with blocking waits.
void roundTrip(World& world, int rank, std::size_t bytes) {
  std::vector<char> data(bytes, static_cast<char>(rank + 1));
  auto transfer = [&](Request::Kind kind) {
    auto request = makeRequest(world, kind, data.data(), bytes, 1 - rank, 3);
    if (kind == Request::Kind::Send) {
      world.engine().startSend(*request);
    } else {
      world.engine().startRecv(*request);
    }
    world.engine().wait(*request);
  };
  if (rank == 0) {
    transfer(Request::Kind::Send);
    transfer(Request::Kind::Recv);
    RANK_CHECK(data.front() == 2 && data.back() == 2);
  } else {
    transfer(Request::Kind::Recv);
    RANK_CHECK(data.front() == 1 && data.back() == 1);
    std::fill(data.begin(), data.end(), char{2});
    transfer(Request::Kind::Send);
  }
}

}  // namespace

TEST_CASE("over forced tcp a waiting thread receives itself, unless ZMPI_RECEIVE_IN_WAIT=0", "[lease][world]") {
  const bool on = GENERATE(true, false);
  if (!on) ::setenv("ZMPI_RECEIVE_IN_WAIT", "0", 1);
  ForcedTcp tcp(/*smallOnBulk=*/false);  // small messages through the inbox
  runTcpWorlds("receive-lease-test", jobKeys(), [&](World& world, int rank) {
    RANK_CHECK(world.engine().waitersReceive() == on);
    const uint64_t before = world.engine().receiveLease().takes();
    for (int i = 0; i < 5; ++i) roundTrip(world, rank, 8);
    const uint64_t took = world.engine().receiveLease().takes() - before;
    RANK_CHECK(on ? took > 0 : took == 0);
  });
  ::unsetenv("ZMPI_RECEIVE_IN_WAIT");
}

TEST_CASE("a waiter receiving in a probe is woken by an arrival on the bulk connection's thread", "[lease][world]") {
  // Rank 1 probes for a large message, receiving from the zmq inbox itself meanwhile; the
  // message's Rts comes on the bulk connection, whose I/O thread queues it unexpected and
  // must wake the prober out of its zmq poll. Then a small one, which comes through zmq.
  ForcedTcp tcp(/*smallOnBulk=*/false);  // small messages through the inbox
  runTcpWorlds("receive-lease-test", jobKeys(), [](World& world, int rank) {
    world.engine().setReceiveRecheck(1h);  // a missed wake-up hangs (the test's timeout fails it)
    constexpr int kRounds = 20;
    for (int round = 0; round < kRounds; ++round) {
      for (std::size_t bytes : {std::size_t{100000}, std::size_t{8}}) {
        std::vector<char> data(bytes, static_cast<char>(round));
        if (rank == 0) {
          sendBytes(world, 1, 6, data.data(), bytes);
          continue;
        }
        MPI_Status status;
        world.engine().probe(world.commWorld().p2pContext(), 0, 6, &status, 0);
        RANK_CHECK(status._ucount == bytes);
        recvBytes(world, 0, 6, data.data(), bytes);
        RANK_CHECK(data.back() == static_cast<char>(round));
      }
    }
    RANK_CHECK(rank == 1 || world.bulkFramesSent() > 0);
  });
}

TEST_CASE("two threads of a rank wait at once: one receives, the other is woken", "[lease][world]") {
  ForcedTcp tcp(/*smallOnBulk=*/false);  // small messages through the inbox
  runTcpWorlds("receive-lease-test", jobKeys(), [](World& world, int rank) {
    world.engine().setReceiveRecheck(1h);
    constexpr int kRounds = 20;
    if (rank == 1) {
      // Both tags each round, in alternating order, after rank 0's two threads have posted.
      for (int round = 0; round < kRounds; ++round) {
        int go = 0;
        auto ready = makeRequest(world, Request::Kind::Recv, &go, sizeof go, 0, 9);
        world.engine().startRecv(*ready);
        world.engine().wait(*ready);
        for (int tag : round % 2 == 0 ? std::vector<int>{1, 2} : std::vector<int>{2, 1}) {
          auto send = makeRequest(world, Request::Kind::Send, &round, sizeof round, 0, tag);
          world.engine().startSend(*send);
          world.engine().wait(*send);
        }
      }
      return;
    }
    for (int round = 0; round < kRounds; ++round) {
      std::latch posted(2);
      std::vector<int> got(2, -1);
      auto receiver = [&](int tag) {
        auto recv = makeRequest(world, Request::Kind::Recv, &got[static_cast<size_t>(tag - 1)], sizeof(int), 1, tag);
        world.engine().startRecv(*recv);
        posted.count_down();
        world.engine().wait(*recv);
      };
      std::thread first(receiver, 1);
      std::thread second(receiver, 2);
      posted.wait();
      // Both receives are posted (and their threads about to wait): let rank 1 send.
      int go = round;
      auto send = makeRequest(world, Request::Kind::Send, &go, sizeof go, 1, 9);
      world.engine().startSend(*send);
      world.engine().wait(*send);
      first.join();
      second.join();
      RANK_CHECK(got[0] == round && got[1] == round);
    }
  });
}
