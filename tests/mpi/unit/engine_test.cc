// The point-to-point engine in mock mode: exactly which messages go on the wire, in which
// order, and MPI's matching rules.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "mock_world.h"
#include "mpi/core/mock_fabric.h"
#include "mpi/datatype/constructors.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {
std::vector<SentRecord> between(const std::vector<SentRecord>& records, int from, int to) {
  std::vector<SentRecord> out;
  for (const auto& r : records) {
    if (r.from == from && r.to == to) out.push_back(r);
  }
  return out;
}

// The receiving side of the large-message tests: rank 0's message with tag 1 whole, with
// tag 2 into a buffer half its length (MPI_ERR_TRUNCATE, nothing written past it), with
// tag 3 into a type with gaps (every third byte), each checked against `expected`.
template <typename Expected>
void receiveWholeTruncatedAndGapped(World& world, size_t bytes, Expected expected) {
  std::vector<char> data(bytes);
  MPI_Status status = recvBytes(world, 0, 1, data.data(), bytes);
  CHECK(status._ucount == bytes);
  CHECK(status.MPI_ERROR == MPI_SUCCESS);
  CHECK(status.MPI_TAG == 1);
  CHECK(status.MPI_SOURCE == 0);
  bool same = true;
  for (size_t i = 0; i < bytes; ++i) same &= data[i] == expected(i);
  CHECK(same);
  std::vector<char> part(bytes / 2 + 2, 'x');
  status = recvBytes(world, 0, 2, part.data(), bytes / 2);
  CHECK(status.MPI_ERROR == MPI_ERR_TRUNCATE);
  CHECK(status._ucount == bytes / 2);
  same = true;
  for (size_t i = 0; i < bytes / 2; ++i) same &= part[i] == expected(i);
  CHECK(same);
  CHECK(part[bytes / 2] == 'x');
  Datatype* spreadType = types::vector(static_cast<int>(bytes), 1, 3, *byteType());
  std::vector<char> spread(bytes * 3, 'x');
  auto request = makeRequest(world, Request::Kind::Recv, spread.data(), bytes, 0, 3);
  request->type = spreadType;
  request->count = 1;
  world.engine().startRecv(*request);
  world.engine().wait(*request);
  CHECK(request->status._ucount == bytes);
  same = true;
  for (size_t i = 0; i < bytes; ++i) same &= spread[i * 3] == expected(i) && spread[i * 3 + 1] == 'x';
  CHECK(same);
  spreadType->release();
}
}  // namespace

TEST_CASE("a small standard send is one eager message carrying envelope and payload", "[engine][mock]") {
  auto network = runMockWorlds(2, [](World& world) {
    char data[16] = "hello";
    if (world.rank() == 0) {
      sendBytes(world, 1, 42, data, sizeof data);
    } else {
      char got[16] = {};
      MPI_Status status = recvBytes(world, 0, 42, got, sizeof got);
      CHECK(std::string(got) == "hello");
      CHECK(status.MPI_SOURCE == 0);
      CHECK(status.MPI_TAG == 42);
      CHECK(status._ucount == 16);
    }
  });
  auto sent = between(network->sent(), 0, 1);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].kind == MessageKind::Eager);
  CHECK(sent[0].envelope.tag == 42);
  CHECK(sent[0].envelope.source == 0);
  CHECK(sent[0].payloadBytes == 16);
  // No reply names an eager send: its ids stay zero, so a same-host ring carries it in
  // compact form (Envelope).
  CHECK(sent[0].envelope.sendId == 0);
  CHECK(sent[0].envelope.recvId == 0);
  CHECK(between(network->sent(), 1, 0).empty());
}

// The spin policy is set before a world's progress thread starts (which reads it), so these
// tests set it on an engine of their own: no world, no progress thread.
TEST_CASE("a spin yields after every poll when oversubscribed; ZMPI_YIELD_WHEN_IDLE overrides", "[engine][mock]") {
  MockFabric fabric(std::make_shared<MockNetwork>(1), 0);
  Engine engine(0, 1, 0, fabric);
  CHECK(engine.pollsPerYield() > 1);  // mock worlds never oversubscribe a host
  engine.setSpinPolicy(true, true);
  CHECK(engine.pollsPerYield() == 1);
  engine.setSpinPolicy(false, true);
  const unsigned bound = engine.pollsPerYield();
  engine.setSpinPolicy(false, false);
  CHECK(engine.pollsPerYield() < bound);  // an unbound rank may share a CPU with its peer
  ::setenv("ZMPI_YIELD_WHEN_IDLE", "0", 1);
  engine.setSpinPolicy(true, true);
  CHECK(engine.pollsPerYield() == bound);
  ::setenv("ZMPI_YIELD_WHEN_IDLE", "1", 1);
  engine.setSpinPolicy(false, true);
  CHECK(engine.pollsPerYield() == 1);
  ::unsetenv("ZMPI_YIELD_WHEN_IDLE");
}

TEST_CASE("a bulk wait yields after every look only when oversubscribed; ZMPI_YIELD_WHEN_IDLE overrides",
          "[engine][mock]") {
  MockFabric fabric(std::make_shared<MockNetwork>(1), 0);
  Engine engine(0, 1, 0, fabric);
  CHECK(engine.bulkLooksPerYield() == Engine::kBulkLooksPerYield);
  CHECK(Engine::kBulkLooksPerYield > 1);
  engine.setOversubscribed(true);
  CHECK(engine.bulkLooksPerYield() == 1);
  engine.setOversubscribed(false);
  CHECK(engine.bulkLooksPerYield() == Engine::kBulkLooksPerYield);
  ::setenv("ZMPI_YIELD_WHEN_IDLE", "1", 1);
  engine.setOversubscribed(false);
  CHECK(engine.bulkLooksPerYield() == 1);
  ::setenv("ZMPI_YIELD_WHEN_IDLE", "0", 1);
  engine.setOversubscribed(true);
  CHECK(engine.bulkLooksPerYield() == Engine::kBulkLooksPerYield);
  ::unsetenv("ZMPI_YIELD_WHEN_IDLE");
}

TEST_CASE("a rank without same-host peers does not spin, unless ZMPI_SPIN_US names a spin", "[engine][mock]") {
  MockFabric fabric(std::make_shared<MockNetwork>(1), 0);
  Engine engine(0, 1, 0, fabric);
  CHECK(engine.spinTime() == std::chrono::microseconds(50));  // the default, with fast peers
  ::setenv("ZMPI_SPIN_US", "70", 1);
  engine.setSpinPolicy(false, true, false);
  CHECK(engine.spinTime() == std::chrono::microseconds(50));  // named: kept (read at start-up)
  ::unsetenv("ZMPI_SPIN_US");
  engine.setSpinPolicy(false, true, true);
  CHECK(engine.spinTime() == std::chrono::microseconds(50));
  engine.setSpinPolicy(false, true, false);
  CHECK(engine.spinTime().count() == 0);
}

TEST_CASE("a wait for a large transfer spins as long as moving it takes, within a bound", "[engine][mock]") {
  MockFabric fabric(std::make_shared<MockNetwork>(1), 0);
  Engine engine(0, 1, 0, fabric);
  using std::chrono::microseconds;
  CHECK(engine.spinAllowance(0) == engine.spinTime());
  CHECK(engine.spinAllowance(8) == engine.spinTime());  // a small message: the bare spin
  CHECK(engine.spinAllowance(1 << 20) == engine.spinTime() + microseconds((1 << 20) / 2000));
  CHECK(engine.spinAllowance(uint64_t{1} << 40) == engine.spinTime() + microseconds(2000));  // bounded
  // Without same-host peers nothing spins (spinsFor), whatever the size.
  engine.setSpinPolicy(false, true, false);
  CHECK_FALSE(engine.spinsFor(0));
}

TEST_CASE("a large send waits for the receiver: Rts, Cts, then Data", "[engine][mock]") {
  const size_t bytes = 1 << 20;  // far above the eager limit
  auto network = runMockWorlds(2, [&](World& world) {
    std::vector<char> data(bytes);
    if (world.rank() == 0) {
      for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<char>(i * 7);
      sendBytes(world, 1, 1, data.data(), bytes);
    } else {
      MPI_Status status = recvBytes(world, 0, 1, data.data(), bytes);
      CHECK(status._ucount == bytes);
      bool same = true;
      for (size_t i = 0; i < bytes; ++i) same &= data[i] == static_cast<char>(i * 7);
      CHECK(same);
    }
  });
  auto forward = between(network->sent(), 0, 1);
  auto back = between(network->sent(), 1, 0);
  REQUIRE(forward.size() == 2);
  CHECK(forward[0].kind == MessageKind::Rts);
  CHECK(forward[0].payloadBytes == 0);
  CHECK(forward[0].envelope.totalBytes == bytes);
  CHECK(forward[1].kind == MessageKind::Data);
  CHECK(forward[1].payloadBytes == bytes);
  REQUIRE(back.size() == 1);
  CHECK(back[0].kind == MessageKind::Cts);
}

TEST_CASE("a same-host receiver reads a large message from the sender's buffer: Rts, then ReadDone", "[engine][mock]") {
  // All ranks are threads of this process: its own pid reads each sender's buffer.
  const size_t bytes = (1 << 20) + 3;
  auto expected = [](size_t i) { return static_cast<char>(i * 5 + 2); };
  auto network = runMockWorlds(
      2,
      [&](World& world) {
        if (world.rank() == 1) {
          receiveWholeTruncatedAndGapped(world, bytes, expected);
          return;
        }
        std::vector<char> data(bytes);
        for (size_t i = 0; i < bytes; ++i) data[i] = expected(i);
        for (int tag = 1; tag <= 3; ++tag) sendBytes(world, 1, tag, data.data(), bytes);
      },
      0, 0, static_cast<int>(::getpid()));
  auto forward = between(network->sent(), 0, 1);
  auto back = between(network->sent(), 1, 0);
  REQUIRE(forward.size() == 3);
  for (const SentRecord& record : forward) {
    CHECK(record.kind == MessageKind::Rts);
    CHECK(record.envelope.offset != 0);  // where the payload lies in the sender
  }
  REQUIRE(back.size() == 3);
  for (const SentRecord& record : back) CHECK(record.kind == MessageKind::ReadDone);
  CHECK(network->singleCopyRefusals() == 0);
}

TEST_CASE("a direct read the kernel refuses falls back to Cts and Data, and the pair stops trying", "[engine][mock]") {
  // No process has this pid (above any pid_max): process_vm_readv fails with ESRCH.
  const size_t bytes = 256 * 1024;
  auto network = runMockWorlds(
      2,
      [&](World& world) {
        std::vector<char> data(bytes);
        if (world.rank() == 0) {
          for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<char>(i * 3);
          sendBytes(world, 1, 1, data.data(), bytes);
          sendBytes(world, 1, 2, data.data(), bytes);
          return;
        }
        for (int tag = 1; tag <= 2; ++tag) {
          std::fill(data.begin(), data.end(), 0);
          MPI_Status status = recvBytes(world, 0, tag, data.data(), bytes);
          CHECK(status._ucount == bytes);
          CHECK(status.MPI_ERROR == MPI_SUCCESS);
          bool same = true;
          for (size_t i = 0; i < bytes; ++i) same &= data[i] == static_cast<char>(i * 3);
          CHECK(same);
        }
      },
      0, 0, std::numeric_limits<int>::max());
  std::vector<MessageKind> forward, back;
  for (const SentRecord& record : between(network->sent(), 0, 1)) forward.push_back(record.kind);
  for (const SentRecord& record : between(network->sent(), 1, 0)) back.push_back(record.kind);
  CHECK(forward == std::vector{MessageKind::Rts, MessageKind::Data, MessageKind::Rts, MessageKind::Data});
  CHECK(back == std::vector{MessageKind::Cts, MessageKind::Cts});
  CHECK(network->singleCopyRefusals() == 1);  // the second message did not try
}

TEST_CASE("rendezvous data goes in pieces where the path asks for them and the receive buffer is contiguous",
          "[engine][mock]") {
  const size_t bytes = 300 * 1024 + 5;  // 5 pieces of 64 KiB, the last one short
  const size_t piece = 64 * 1024;
  auto expected = [](size_t i) { return static_cast<char>(i * 7 + 1); };
  auto network = runMockWorlds(
      2,
      [&](World& world) {
        if (world.rank() == 0) {
          std::vector<char> data(bytes);
          for (size_t i = 0; i < bytes; ++i) data[i] = expected(i);
          for (int tag = 1; tag <= 3; ++tag) sendBytes(world, 1, tag, data.data(), bytes);
        } else {
          // The truncated receive ends inside a piece: what fits is stored, the rest
          // dropped, and the status says so once the last piece came. A type with gaps
          // takes the data whole, then unpacks it.
          receiveWholeTruncatedAndGapped(world, bytes, expected);
        }
      },
      0, piece);
  std::vector<SentRecord> data;
  for (const auto& record : between(network->sent(), 0, 1)) {
    if (record.kind == MessageKind::Data) data.push_back(record);
  }
  REQUIRE(data.size() == 2 * 5 + 1);
  for (size_t i = 0; i < 10; ++i) {
    CHECK(data[i].envelope.offset == (i % 5) * piece);
    CHECK(data[i].envelope.totalBytes == bytes);
    CHECK(data[i].payloadBytes == (i % 5 == 4 ? bytes - 4 * piece : piece));
  }
  CHECK(data[10].envelope.offset == 0);
  CHECK(data[10].payloadBytes == bytes);
}

TEST_CASE("the fabric's per-peer eager limit decides between eager and rendezvous", "[engine][mock]") {
  const size_t bytes = 200 * 1024;  // above the engine's 64 KiB, below the path's limit
  auto network = runMockWorlds(
      2,
      [&](World& world) {
        std::vector<char> data(bytes);
        if (world.rank() == 0) {
          for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<char>(i * 3);
          sendBytes(world, 1, 1, data.data(), bytes);
          std::vector<char> big(bytes * 2);  // above the path's limit too
          sendBytes(world, 1, 2, big.data(), big.size());
        } else {
          CHECK(recvBytes(world, 0, 1, data.data(), bytes)._ucount == bytes);
          bool same = true;
          for (size_t i = 0; i < bytes; ++i) same &= data[i] == static_cast<char>(i * 3);
          CHECK(same);
          std::vector<char> big(bytes * 2);
          CHECK(recvBytes(world, 0, 2, big.data(), big.size())._ucount == big.size());
        }
      },
      300 * 1024);
  auto forward = between(network->sent(), 0, 1);
  REQUIRE(forward.size() == 3);
  CHECK(forward[0].kind == MessageKind::Eager);
  CHECK(forward[0].payloadBytes == bytes);
  CHECK(forward[1].kind == MessageKind::Rts);
  CHECK(forward[2].kind == MessageKind::Data);
}

TEST_CASE("a synchronous send completes only after the matching receive started", "[engine][mock]") {
  auto network = runMockWorlds(2, [](World& world) {
    int value = 7;
    if (world.rank() == 0) {
      auto request = makeRequest(world, Request::Kind::Send, &value, sizeof value, 1, 3, SendMode::Synchronous);
      world.engine().startSend(*request);
      // Nothing has been received yet: the receiver waits for our go-ahead below.
      CHECK_FALSE(request->done.load());
      sendBytes(world, 1, 99, &value, sizeof value);  // "go ahead"
      world.engine().wait(*request);
    } else {
      int go = 0, got = 0;
      recvBytes(world, 0, 99, &go, sizeof go);
      recvBytes(world, 0, 3, &got, sizeof got);
      CHECK(got == 7);
    }
  });
  auto forward = between(network->sent(), 0, 1);
  REQUIRE(forward.size() == 2);
  CHECK(forward[0].kind == MessageKind::EagerSync);
  CHECK(forward[0].envelope.sendId != 0);  // the SyncAck names it
  auto back = between(network->sent(), 1, 0);
  REQUIRE(back.size() == 1);
  CHECK(back[0].kind == MessageKind::SyncAck);
  CHECK(back[0].envelope.sendId == forward[0].envelope.sendId);
}

TEST_CASE("messages between a pair are not overtaken; wildcards match in arrival order", "[engine][mock]") {
  runMockWorlds(2, [](World& world) {
    const int n = 50;
    if (world.rank() == 0) {
      for (int i = 0; i < n; ++i) sendBytes(world, 1, i % 3, &i, sizeof i);
    } else {
      for (int i = 0; i < n; ++i) {
        int got = -1;
        MPI_Status status = recvBytes(world, MPI_ANY_SOURCE, MPI_ANY_TAG, &got, sizeof got);
        REQUIRE(got == i);
        CHECK(status.MPI_TAG == i % 3);
      }
    }
  });
}

TEST_CASE("receives select by tag even when other tags arrived first", "[engine][mock]") {
  runMockWorlds(2, [](World& world) {
    if (world.rank() == 0) {
      for (int tag : {1, 2, 3}) sendBytes(world, 1, tag, &tag, sizeof tag);
    } else {
      for (int tag : {3, 1, 2}) {
        int got = 0;
        recvBytes(world, 0, tag, &got, sizeof got);
        CHECK(got == tag);
      }
    }
  });
}

TEST_CASE("a message longer than the buffer is truncated with MPI_ERR_TRUNCATE", "[engine][mock]") {
  runMockWorlds(2, [](World& world) {
    char data[64] = {};
    if (world.rank() == 0) {
      sendBytes(world, 1, 0, data, sizeof data);
      std::vector<char> big(200 * 1024);
      sendBytes(world, 1, 1, big.data(), big.size());
    } else {
      char small[8];
      CHECK(recvBytes(world, 0, 0, small, sizeof small).MPI_ERROR == MPI_ERR_TRUNCATE);
      std::vector<char> half(100 * 1024);
      CHECK(recvBytes(world, 0, 1, half.data(), half.size()).MPI_ERROR == MPI_ERR_TRUNCATE);
    }
  });
}

TEST_CASE("probe sees an unexpected message without receiving it; a cancelled receive never matches",
          "[engine][mock]") {
  runMockWorlds(2, [](World& world) {
    const int context = world.commWorld().p2pContext();
    if (world.rank() == 0) {
      int go = 0;
      recvBytes(world, 1, 0, &go, sizeof go);
      double payload[3] = {1, 2, 3};
      sendBytes(world, 1, 5, payload, sizeof payload);
    } else {
      int nothing = 0;
      auto cancelled = makeRequest(world, Request::Kind::Recv, &nothing, sizeof nothing, 0, 5);
      world.engine().startRecv(*cancelled);
      CHECK(world.engine().cancel(*cancelled));
      CHECK(cancelled->status._cancelled == 1);
      int go = 1;
      sendBytes(world, 0, 0, &go, sizeof go);
      MPI_Status status;
      world.engine().probe(context, MPI_ANY_SOURCE, 5, &status);
      CHECK(status.MPI_SOURCE == 0);
      CHECK(status._ucount == 3 * sizeof(double));
      CHECK(world.engine().iprobe(context, 0, 5, &status));  // still there
      double got[3] = {};
      recvBytes(world, 0, 5, got, sizeof got);
      CHECK(got[2] == 3);
      CHECK_FALSE(world.engine().iprobe(context, 0, 5, &status));
      CHECK(nothing == 0);
    }
  });
}

TEST_CASE("a message to self goes through the fabric and matches like any other", "[engine][mock]") {
  auto network = runMockWorlds(1, [](World& world) {
    int value = 11, got = 0;
    auto recv = makeRequest(world, Request::Kind::Recv, &got, sizeof got, 0, 4);
    world.engine().startRecv(*recv);
    sendBytes(world, 0, 4, &value, sizeof value);
    world.engine().wait(*recv);
    CHECK(got == 11);
  });
  CHECK(network->sent().size() == 1);
}
