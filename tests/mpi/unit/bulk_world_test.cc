// Which jobs send rendezvous payloads over bulk data connections (ZmqFabric::sendBulk):
// authenticated jobs over tcp do (by default, and with ZMPI_TCP_BULK=1); encrypted jobs (the
// bulk path is plaintext), jobs without a secret (no unauthenticated side door) and
// ZMPI_TCP_BULK=0 keep them on zmq.
// The bytes arrive intact either way. Ranks are threads of this process.
#include <catch2/catch.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "socket_worlds.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;
using namespace std::chrono_literals;

namespace {

// Rank 0 sends `rounds` pairs (a payload above the tcp eager limit, whose Rts takes the
// bulk connection, then a small eager one on zmq), all with one tag; rank 1 receives them
// in order, the first half posted before they arrive, the second half after. MPI's order
// holds only if the receiver matches the Rts on the bulk connection before the eager
// message behind it on zmq, and vice versa.
void orderedTraffic(World& world, int rank, int rounds) {
  constexpr size_t kBig = 600000, kSmall = 100;
  auto sizeOf = [](int i) { return i % 2 == 0 ? kBig : kSmall; };
  auto byte = [](int i, size_t at) { return static_cast<char>(i * 7 + at); };
  const int count = 2 * rounds;
  if (rank == 0) {
    std::vector<std::vector<char>> out(static_cast<size_t>(count));
    std::vector<std::unique_ptr<Request>> sends;
    for (int i = 0; i < count; ++i) {
      auto& data = out[static_cast<size_t>(i)];
      data.resize(sizeOf(i));
      for (size_t at = 0; at < data.size(); ++at) data[at] = byte(i, at);
      sends.push_back(makeRequest(world, Request::Kind::Send, data.data(), data.size(), 1, 9));
      world.engine().startSend(*sends.back());
    }
    for (auto& send : sends) world.engine().wait(*send);
    return;
  }
  std::vector<std::vector<char>> in(static_cast<size_t>(count), std::vector<char>(kBig));
  std::vector<std::unique_ptr<Request>> recvs;
  auto check = [&](int i, Request& recv) {
    RANK_CHECK(static_cast<size_t>(recv.status._ucount) == sizeOf(i));
    for (size_t at = 0; at < sizeOf(i); ++at) RANK_CHECK(in[static_cast<size_t>(i)][at] == byte(i, at));
  };
  for (int i = 0; i < rounds; ++i) {  // posted first
    recvs.push_back(makeRequest(world, Request::Kind::Recv, in[static_cast<size_t>(i)].data(), kBig, 0, 9));
    world.engine().startRecv(*recvs.back());
  }
  for (int i = 0; i < rounds; ++i) {
    world.engine().wait(*recvs[static_cast<size_t>(i)]);
    check(i, *recvs[static_cast<size_t>(i)]);
  }
  for (int i = rounds; i < count; ++i) {  // mostly unexpected by now
    auto recv = makeRequest(world, Request::Kind::Recv, in[static_cast<size_t>(i)].data(), kBig, 0, 9);
    world.engine().startRecv(*recv);
    world.engine().wait(*recv);
    check(i, *recv);
  }
}

// Two ranks exchange payloads above the tcp eager limit (and, with `rounds`, the ordered
// traffic above); returns each rank's bulk frames, and in `eagerLimits` (if given) each
// rank's eager limit to the other.
std::vector<uint64_t> exchange(const std::shared_ptr<const zmpi::transport::LinkKeys>& keys, int rounds = 0,
                               std::vector<uint64_t>* eagerLimits = nullptr) {
  std::vector<uint64_t> frames(2);
  runTcpWorlds("bulk-world-test", keys, [&](World& world, int rank) {
    if (eagerLimits != nullptr) (*eagerLimits)[static_cast<size_t>(rank)] = world.engine().eagerLimitTo(1 - rank);
    for (size_t bytes : {size_t{600000}, size_t{3 * 1024 * 1024 + 5}}) {
      std::vector<char> out(bytes), in(bytes);
      for (size_t i = 0; i < bytes; ++i) out[i] = static_cast<char>(i * 13 + rank);
      auto recv = makeRequest(world, Request::Kind::Recv, in.data(), bytes, 1 - rank, 4);
      world.engine().startRecv(*recv);
      auto send = makeRequest(world, Request::Kind::Send, out.data(), bytes, 1 - rank, 4);
      world.engine().startSend(*send);
      world.engine().wait(*send);
      world.engine().wait(*recv);
      for (size_t i = 0; i < bytes; ++i) RANK_CHECK(in[i] == static_cast<char>(i * 13 + (1 - rank)));
    }
    if (rounds > 0) orderedTraffic(world, rank, rounds);
    frames[static_cast<size_t>(rank)] = world.bulkFramesSent();
  });
  return frames;
}

}  // namespace

TEST_CASE("an authenticated job sends rendezvous payloads over bulk data connections", "[world][bulk]") {
  ForcedTcp tcp;
  SECTION("asked to") {}
  SECTION("by default") { ::unsetenv("ZMPI_TCP_BULK"); }
  const auto frames = exchange(zmpi::transport::deriveLinkKeys("a job secret for the bulk test", false));
  // Each rank: 2 payloads, and the Cts of its 2 receives unless one went over zmq.
  CHECK(frames[0] >= 2);
  CHECK(frames[1] >= 2);
}

TEST_CASE("rendezvous on the bulk connection and eager messages on zmq keep MPI's order", "[world][bulk]") {
  ForcedTcp tcp(/*smallOnBulk=*/false);
  constexpr int kRounds = 40;
  const auto frames = exchange(zmpi::transport::deriveLinkKeys("a job secret for the bulk test", false), kRounds);
  // Rank 0: an Rts and a payload per round on the bulk connection, the eager ones on zmq.
  CHECK(frames[0] >= 2 * kRounds);
  CHECK(frames[0] < 3 * kRounds);
}

TEST_CASE("small messages take the bulk connection too, in MPI's order, and waits read it themselves",
          "[world][bulk]") {
  ForcedTcp tcp;
  const bool readInWait = GENERATE(true, false);
  if (!readInWait) ::setenv("ZMPI_BULK_IN_WAIT", "0", 1);
  constexpr int kRounds = 40;
  std::vector<uint64_t> leaseTakes(2);
  std::vector<uint64_t> frames(2);
  std::vector<uint64_t> readByWaiters(2);
  runTcpWorlds("bulk-world-test", zmpi::transport::deriveLinkKeys("a job secret for the bulk test", false),
               [&](World& world, int rank) {
                 RANK_CHECK(world.engine().waitersReadBulk() == readInWait);
                 orderedTraffic(world, rank, kRounds);
                 frames[static_cast<size_t>(rank)] = world.bulkFramesSent();
                 leaseTakes[static_cast<size_t>(rank)] = world.engine().receiveLease().takes();
                 readByWaiters[static_cast<size_t>(rank)] = world.bulkFramesReadInWait();
               });
  ::unsetenv("ZMPI_BULK_IN_WAIT");
  // Rank 0: an Rts, a payload and an eager message per round.
  CHECK(frames[0] >= 3 * kRounds);
  // Nothing a wait waited for came through the zmq inbox: no waiting thread took the right
  // to receive from it.
  CHECK(leaseTakes == std::vector<uint64_t>{0, 0});
  // The receiver's waits read the bulk connection themselves (some frames may still reach
  // the I/O thread, between waits); with ZMPI_BULK_IN_WAIT=0 its I/O thread reads them all.
  if (readInWait) {
    CHECK(readByWaiters[1] > 0);
  } else {
    CHECK(readByWaiters == std::vector<uint64_t>{0, 0});
  }
}

TEST_CASE("a thread reading the bulk connections in a wait is woken by a completion on another thread",
          "[world][bulk]") {
  // Rank 1's first thread waits for a message to itself, reading the bulk connection
  // meanwhile (nothing comes there); its second thread sends it. The completion happens on
  // a thread other than the reader's, which must wake it out of its poll: with the recheck an
  // hour, a missed wake-up hangs (and the test's timeout fails it). No spin: the reader
  // is in its poll at once, mostly before the other thread sends.
  ForcedTcp tcp;
  ::setenv("ZMPI_BULK_SPIN_US", "0", 1);
  runTcpWorlds("bulk-world-test", zmpi::transport::deriveLinkKeys("a job secret for the bulk test", false),
               [&](World& world, int rank) {
                 world.engine().setReceiveRecheck(1h);
                 RANK_CHECK(world.engine().waitersReadBulk());
                 if (rank == 0) return;
                 constexpr int kRounds = 20;
                 for (int round = 0; round < kRounds; ++round) {
                   int got = -1;
                   auto recv = makeRequest(world, Request::Kind::Recv, &got, sizeof got, 1, 5);
                   world.engine().startRecv(*recv);
                   std::thread sender([&] {
                     auto send = makeRequest(world, Request::Kind::Send, &round, sizeof round, 1, 5);
                     world.engine().startSend(*send);
                     world.engine().wait(*send);
                   });
                   world.engine().wait(*recv);
                   sender.join();
                   RANK_CHECK(got == round);
                 }
               });
  ::unsetenv("ZMPI_BULK_SPIN_US");
}

TEST_CASE("over tcp small messages go eagerly: up to 32 KiB with a bulk connection, else 512 KiB", "[world][bulk]") {
  // With the bulk connection a rendezvous beats a large eager message through zmq; without
  // it the hand-shake is a zmq round trip (zmq_fabric.h). ZMPI_TCP_EAGER_LIMIT decides alone.
  ForcedTcp tcp;
  std::vector<uint64_t> limits(2);
  SECTION("bulk") {
    exchange(zmpi::transport::deriveLinkKeys("a job secret for the bulk test", false), 0, &limits);
    CHECK(limits == std::vector<uint64_t>{32 * 1024, 32 * 1024});
  }
  SECTION("no bulk") {
    ::setenv("ZMPI_TCP_BULK", "0", 1);
    exchange(zmpi::transport::deriveLinkKeys("a job secret for the bulk test", false), 0, &limits);
    CHECK(limits == std::vector<uint64_t>{512 * 1024, 512 * 1024});
  }
  SECTION("set") {
    ::setenv("ZMPI_TCP_EAGER_LIMIT", "100000", 1);
    exchange(zmpi::transport::deriveLinkKeys("a job secret for the bulk test", false), 0, &limits);
    ::unsetenv("ZMPI_TCP_EAGER_LIMIT");
    CHECK(limits == std::vector<uint64_t>{100000, 100000});
  }
}

TEST_CASE("with ZMPI_TCP_BULK=0, or for an encrypted job or one without a secret, they stay on zmq", "[world][bulk]") {
  ForcedTcp tcp;
  SECTION("ZMPI_TCP_BULK=0") {
    ::setenv("ZMPI_TCP_BULK", "0", 1);
    CHECK(exchange(zmpi::transport::deriveLinkKeys("a job secret for the bulk test", false)) ==
          std::vector<uint64_t>{0, 0});
  }
  SECTION("encrypted") {
    if (!zmpi::transport::curveAvailable()) {
      WARN("skipped: no CURVE in this libzmq");
      return;
    }
    CHECK(exchange(zmpi::transport::deriveLinkKeys("a job secret for the bulk test", true)) ==
          std::vector<uint64_t>{0, 0});
  }
  SECTION("no secret") { CHECK(exchange(nullptr) == std::vector<uint64_t>{0, 0}); }
}
