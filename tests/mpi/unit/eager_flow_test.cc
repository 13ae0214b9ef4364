// Eager flow control (mpi/core/eager_flow.h) in mock mode: a sender running ahead of its
// receiver is held to the pair's window (what is over it goes by rendezvous), nothing is
// lost or reordered on the way, and credit costs a message only every quarter window.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <latch>
#include <vector>

#include "mock_world.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

constexpr std::size_t kLimit = 4096;  // the mock pair's eager limit: a window of 16 of them

// Sizes around the eager limit, and empty ones.
std::size_t sizeOf(int m) {
  static const std::size_t sizes[] = {100, kLimit, kLimit + 1, 3000, 0, 1, 2 * kLimit, kLimit - 1};
  return sizes[static_cast<std::size_t>(m) % (sizeof sizes / sizeof sizes[0])];
}
unsigned char byteOf(int m, std::size_t i) { return static_cast<unsigned char>(m * 37 + i * 11 + 3); }

std::vector<unsigned char> payloadOf(int m) {
  std::vector<unsigned char> data(sizeOf(m));
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = byteOf(m, i);
  return data;
}

std::size_t countKind(const std::vector<SentRecord>& records, int from, int to, MessageKind kind) {
  std::size_t n = 0;
  for (const auto& r : records) n += r.from == from && r.to == to && r.kind == kind;
  return n;
}

// Rendezvous messages within the eager limit: sent so for want of credit.
std::size_t starvedRts(const std::vector<SentRecord>& records) {
  std::size_t n = 0;
  for (const auto& r : records) {
    n += r.kind == MessageKind::Rts && r.envelope.totalBytes <= kLimit && r.envelope.recvId == kStarvedRts;
  }
  return n;
}

}  // namespace

TEST_CASE("a sender running ahead is held to its eager window; everything arrives intact and in order",
          "[engine][mock][flow]") {
  const int n = 300;  // about 750 KB: a dozen windows
  // MPI_Send's path spends credit claimed ahead where the program's sends are serialized
  // (below MPI_THREAD_MULTIPLE), else it adds atomically: both must hold the bound.
  const bool serialized = GENERATE(false, true);
  std::vector<std::vector<unsigned char>> payloads;
  for (int m = 0; m < n; ++m) payloads.push_back(payloadOf(m));
  auto network = runMockWorlds(
      2,
      [&](World& world) {
        Engine& engine = world.engine();
        const int context = world.commWorld().p2pContext();
        if (world.rank() == 0) {
          engine.setSendsSerialized(serialized);
          std::vector<std::unique_ptr<Request>> sends;
          for (int m = 0; m < n; ++m) {
            auto& data = payloads[static_cast<std::size_t>(m)];
            // MPI_Send's path without a request where it may, the rest as MPI_Isend/Issend.
            if (m % 5 == 0 && data.size() <= kLimit &&
                engine.sendEagerNow(1, context, 0, m, data.data(), data.size())) {
              continue;
            }
            const SendMode mode = m % 7 == 3 ? SendMode::Synchronous : SendMode::Standard;
            sends.push_back(makeRequest(world, Request::Kind::Send, data.data(), data.size(), 1, m, mode));
            engine.startSend(*sends.back());
          }
          for (auto& send : sends) engine.wait(*send);
          return;
        }
        // A receive posted and cancelled (for a tag nobody sends) takes nothing.
        char nothing = 0;
        auto cancelled = makeRequest(world, Request::Kind::Recv, &nothing, 1, 0, n + 100);
        engine.startRecv(*cancelled);
        REQUIRE(engine.cancel(*cancelled));
        MPI_Status status;
        engine.probe(context, 0, n - 1, &status);  // the last one: every other is queued before it
        CHECK(engine.unexpectedCount() == static_cast<std::size_t>(n));
        CHECK(engine.unexpectedBytes() <= engine.eagerWindow(0));
        CHECK(engine.eagerWindow(0) == 16 * kLimit);
        std::vector<unsigned char> buffer(2 * kLimit);
        for (int m = 0; m < n; ++m) {
          const auto& expected = payloads[static_cast<std::size_t>(m)];
          std::fill(buffer.begin(), buffer.end(), 0);
          switch (m % 4) {
            case 0:  // wildcards take the earliest: the pair's order held
              status = recvBytes(world, MPI_ANY_SOURCE, MPI_ANY_TAG, buffer.data(), buffer.size());
              break;
            case 1:
              status = recvBytes(world, 0, m, buffer.data(), buffer.size());
              break;
            case 2: {
              MPI_Status probed;
              REQUIRE(engine.iprobe(context, 0, MPI_ANY_TAG, &probed));
              CHECK(probed.MPI_TAG == m);
              CHECK(probed._ucount == expected.size());
              auto message = engine.improbe(context, MPI_ANY_SOURCE, m, &probed);
              REQUIRE(message);
              auto receive = makeRequest(world, Request::Kind::Recv, buffer.data(), buffer.size(), 0, m);
              engine.startMatchedRecv(*receive, std::move(message));
              engine.wait(*receive);
              status = receive->status;
              break;
            }
            default:
              status = recvBytes(world, MPI_ANY_SOURCE, m, buffer.data(), buffer.size());
          }
          REQUIRE(status.MPI_TAG == m);
          CHECK(status.MPI_SOURCE == 0);
          CHECK(status.MPI_ERROR == MPI_SUCCESS);
          REQUIRE(status._ucount == expected.size());
          CHECK(std::equal(expected.begin(), expected.end(), buffer.begin()));
        }
        CHECK(nothing == 0);
        CHECK(engine.unexpectedCount() == 0);
      },
      kLimit);
  const auto records = network->sent();
  // Far more than a window was sent eagerly-sized: some of it had to wait for credit, and
  // the receiver returned credit as it caught up.
  CHECK(starvedRts(records) > 0);
  CHECK(countKind(records, 1, 0, MessageKind::Credit) > 0);
}

TEST_CASE("messages matched by posted receives need credit messages only every quarter window",
          "[engine][mock][flow]") {
  const int n = 512;
  const std::size_t bytes = 1024;  // 512 KiB in all: 8 windows
  std::latch posted(1);
  auto network = runMockWorlds(
      2,
      [&](World& world) {
        Engine& engine = world.engine();
        std::vector<unsigned char> data(bytes * n);
        if (world.rank() == 0) {
          for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 13);
          posted.wait();
          std::vector<std::unique_ptr<Request>> sends;
          for (int m = 0; m < n; ++m) {
            sends.push_back(makeRequest(world, Request::Kind::Send, data.data() + bytes * m, bytes, 1, m));
            engine.startSend(*sends.back());
          }
          for (auto& send : sends) engine.wait(*send);
          return;
        }
        std::vector<std::unique_ptr<Request>> receives;
        for (int m = 0; m < n; ++m) {
          receives.push_back(makeRequest(world, Request::Kind::Recv, data.data() + bytes * m, bytes, 0, m));
          engine.startRecv(*receives.back());
        }
        posted.count_down();
        for (auto& receive : receives) engine.wait(*receive);
        bool same = true;
        for (std::size_t i = 0; i < data.size(); ++i) same &= data[i] == static_cast<unsigned char>(i * 13);
        CHECK(same);
      },
      kLimit);
  const auto records = network->sent();
  const std::size_t credits = countKind(records, 1, 0, MessageKind::Credit);
  // One per quarter window consumed (16 KiB), plus one per starved Rts at most (if the
  // sender ran ahead of the credit on its way back).
  CHECK(credits >= 1);
  CHECK(credits <= n * bytes / (4 * kLimit) + starvedRts(records));
}

TEST_CASE("ZMPI_EAGER_WINDOW sets the window; 0 turns flow control off; sends to self are never held",
          "[engine][mock][flow]") {
  const int n = 64;  // 256 KiB at the eager limit: four windows
  std::vector<unsigned char> data(kLimit, 5);
  SECTION("0: off") {
    ::setenv("ZMPI_EAGER_WINDOW", "0", 1);
    auto network = runMockWorlds(
        2,
        [&](World& world) {
          Engine& engine = world.engine();
          const int context = world.commWorld().p2pContext();
          if (world.rank() == 0) {
            for (int m = 0; m < n; ++m) CHECK(engine.sendEagerNow(1, context, 0, m, data.data(), data.size()));
            return;
          }
          MPI_Status status;
          engine.probe(context, 0, n - 1, &status);
          CHECK(engine.unexpectedBytes() == n * kLimit);
          std::vector<unsigned char> buffer(kLimit);
          for (int m = 0; m < n; ++m) recvBytes(world, 0, m, buffer.data(), buffer.size());
        },
        kLimit);
    ::unsetenv("ZMPI_EAGER_WINDOW");
    CHECK(countKind(network->sent(), 0, 1, MessageKind::Eager) == static_cast<std::size_t>(n));
    CHECK(countKind(network->sent(), 1, 0, MessageKind::Credit) == 0);
  }
  SECTION("a number: that many bytes") {
    ::setenv("ZMPI_EAGER_WINDOW", "10000", 1);
    runMockWorlds(
        2, [&](World& world) { CHECK(world.engine().eagerWindow(1 - world.rank()) == 10000); }, kLimit);
    ::unsetenv("ZMPI_EAGER_WINDOW");
  }
  SECTION("self") {
    runMockWorlds(
        1,
        [&](World& world) {
          Engine& engine = world.engine();
          const int context = world.commWorld().p2pContext();
          for (int m = 0; m < n; ++m) CHECK(engine.sendEagerNow(0, context, 0, m, data.data(), data.size()));
          std::vector<unsigned char> buffer(kLimit);
          for (int m = 0; m < n; ++m) recvBytes(world, 0, m, buffer.data(), buffer.size());
        },
        kLimit);
  }
}
