// Messages on one communicator never match receives on another (mock mode): point-to-
// point with identical (source, tag) on a communicator and its dup, and collectives on
// two communicators at once with identical sequence numbers and steps.
#include <array>
#include <catch2/catch.hpp>
#include <memory>
#include <thread>
#include <vector>

#include "mock_world.h"
#include "mpi/coll/channel.h"
#include "mpi/comm/agreement.h"
#include "mpi/comm/constructors.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

std::unique_ptr<Request> p2p(Communicator& comm, Request::Kind kind, int* value, int peer, int tag) {
  auto request = std::make_unique<Request>(kind);
  request->comm = &comm;
  request->buffer = value;
  request->count = sizeof(int);
  request->type = byteType();
  request->peer = peer;
  request->commRank = comm.rank();
  request->tag = tag;
  request->context = comm.p2pContext();
  request->peerWorld = comm.worldRankOf(peer);
  return request;
}

}  // namespace

TEST_CASE("point-to-point on a dup never matches receives on the original", "[comm][mock][isolation]") {
  std::array<int, 2> got{};  // rank 1: what arrived on world, then on the dup
  runMockWorlds(2, [&](World& world) {
    Communicator& w = world.commWorld();
    auto dup = dupCommunicator(w);
    int onWorld = 100, onDup = 200;
    if (world.rank() == 0) {
      // The dup's message goes first: a receive on world that matched by (source, tag)
      // alone would take it.
      auto a = p2p(*dup, Request::Kind::Send, &onDup, 1, 5);
      world.engine().startSend(*a);
      world.engine().wait(*a);
      auto b = p2p(w, Request::Kind::Send, &onWorld, 1, 5);
      world.engine().startSend(*b);
      world.engine().wait(*b);
    } else {
      int x = 0, y = 0;
      auto a = p2p(w, Request::Kind::Recv, &x, 0, 5);
      world.engine().startRecv(*a);
      world.engine().wait(*a);
      auto b = p2p(*dup, Request::Kind::Recv, &y, 0, 5);
      world.engine().startRecv(*b);
      world.engine().wait(*b);
      got = {x, y};
    }
  });
  CHECK(got == std::array<int, 2>{100, 200});
}

TEST_CASE("collective messages with equal tags stay on their communicator", "[comm][mock][isolation]") {
  constexpr int n = 3;
  std::array<std::array<int, 2>, n> got{};
  runMockWorlds(n, [&](World& world) {
    auto a = dupCommunicator(world.commWorld());
    auto b = dupCommunicator(world.commWorld());
    // Both channels take sequence 0 on fresh communicators: identical tags, step for step.
    coll::Channel onA(*a), onB(*b);
    const int r = world.rank(), right = (r + 1) % n, left = (r + n - 1) % n;
    int fromA = -1, fromB = -1, sendA = 1000 + r, sendB = 2000 + r;
    Request* recvB = onB.irecv(left, 0, &fromB, sizeof fromB);
    Request* recvA = onA.irecv(left, 0, &fromA, sizeof fromA);
    Request* s1 = onB.isend(right, 0, &sendB, sizeof sendB);
    Request* s2 = onA.isend(right, 0, &sendA, sizeof sendA);
    onA.waitAll({recvA, s2});
    onB.waitAll({recvB, s1});
    got[static_cast<std::size_t>(r)] = {fromA, fromB};
  });
  for (int r = 0; r < n; ++r) {
    const int left = (r + n - 1) % n;
    CHECK(got[static_cast<std::size_t>(r)] == std::array<int, 2>{1000 + left, 2000 + left});
  }
}

TEST_CASE("concurrent collectives on different communicators from different threads", "[comm][mock][isolation]") {
  constexpr int n = 4;
  constexpr int rounds = 20;
  std::array<bool, n> ok{};
  runMockWorlds(n, [&](World& world) {
    auto a = dupCommunicator(world.commWorld());
    auto b = dupCommunicator(world.commWorld());
    bool good = true;
    // Each thread runs allgathers on its own communicator; contributions differ by
    // communicator, so any cross-match shows up as a wrong value.
    auto work = [&](Communicator& comm, int base, bool& result) {
      for (int i = 0; i < rounds; ++i) {
        std::vector<int> all = allgatherInts(comm, {base + 10 * i + comm.rank()});
        for (int q = 0; q < n; ++q) result &= all[static_cast<std::size_t>(q)] == base + 10 * i + q;
      }
    };
    bool goodA = true, goodB = true;
    std::thread other([&] { work(*b, 5000, goodB); });
    work(*a, 1000, goodA);
    other.join();
    good = goodA && goodB;
    ok[static_cast<std::size_t>(world.rank())] = good;
  });
  for (bool good : ok) CHECK(good);
}
