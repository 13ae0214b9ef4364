// Nonblocking collectives in mock mode: they progress while the rank does not call into
// the collective at all, many may be outstanding on different communicators (started and
// completed in different orders on different ranks), and they send exactly the messages
// their blocking forms send.
#include <mpi.h>

#include <catch2/catch.hpp>

#include "coll_harness.h"
#include "mpi/core/errhandler.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::coll;
using namespace zmpi::mpi::testing;

namespace {

// One byte on the communicator's point-to-point context, through the engine directly: a
// rank blocked here makes no call that could advance a collective.
void p2p(World& world, bool send, int peer) {
  Communicator& comm = world.commWorld();
  char byte = 1;
  Request request(send ? Request::Kind::Send : Request::Kind::Recv);
  request.comm = &comm;
  request.buffer = &byte;
  request.count = 1;
  request.type = byteType();
  request.peer = peer;
  request.commRank = comm.rank();
  request.tag = 77;
  request.context = comm.p2pContext();
  request.peerWorld = comm.worldRankOf(peer);
  if (send) {
    world.engine().startSend(request);
  } else {
    world.engine().startRecv(request);
  }
  world.engine().wait(request);
}

// A communicator over all ranks with its own context id, as MPI_Comm_dup would make.
std::unique_ptr<Communicator> duplicate(World& world, int contextId) {
  std::vector<int> ranks(static_cast<std::size_t>(world.size()));
  for (int r = 0; r < world.size(); ++r) ranks[static_cast<std::size_t>(r)] = r;
  auto* group = new Group(ranks);
  auto comm = std::make_unique<Communicator>(world, group, contextId, Errhandler::fatal());
  group->release();
  return comm;
}

}  // namespace

TEST_CASE("a nonblocking collective advances while its rank is blocked elsewhere", "[coll][nonblocking]") {
  // Ibarrier on 4: rank 2 completes only after rank 0 forwarded (round 1) what rank 3 sent
  // it (round 0). Rank 0 meanwhile sits in a point-to-point receive that rank 2 satisfies
  // only after its barrier completed: without independent progress this never returns.
  runRanks(4, [&](World& world) {
    const int r = world.rank();
    std::unique_ptr<CollectiveRequest> request(start(planBarrier(world.commWorld())));
    if (r == 0) {
      p2p(world, false, 2);
    } else if (r == 2) {
      wait(*request);
      p2p(world, true, 0);
    }
    wait(*request);
  });

  // Rabenseifner allreduce on 4: rank 1's last round receives what rank 0 sends in its
  // last round, after three rounds of receive-and-combine rank 0 never asked for.
  ForceAlgorithm force("ALLREDUCE", "rabenseifner");
  PerRank<std::vector<int>> results(4);
  runRanks(4, [&](World& world) {
    const int r = world.rank();
    std::vector<int> in(8, r + 1), out(8, 0);
    std::unique_ptr<CollectiveRequest> request(
        start(planAllreduce(world.commWorld(), in.data(), out.data(), 8, intType(), kSum)));
    if (r == 0) {
      p2p(world, false, 1);
    } else if (r == 1) {
      wait(*request);
      p2p(world, true, 0);
    }
    wait(*request);
    results.set(r, out);
  });
  for (int r = 0; r < 4; ++r) CHECK(results[r] == std::vector<int>(8, 10));
}

TEST_CASE("many outstanding collectives on different communicators, in any order", "[coll][nonblocking]") {
  const int p = 5, comms = 6;
  PerRank<std::string> failures(p);
  runRanks(p, [&](World& world) {
    const int r = world.rank();
    std::vector<std::unique_ptr<Communicator>> dups;
    for (int k = 0; k < comms; ++k) dups.push_back(duplicate(world, 100 + k));
    std::vector<std::vector<int>> in(comms), out(comms);
    std::vector<std::unique_ptr<CollectiveRequest>> requests(comms);
    // Each rank starts them in its own rotation: legal, as order only matters per communicator.
    for (int i = 0; i < comms; ++i) {
      const int k = (i + r) % comms;
      in[k].assign(static_cast<std::size_t>(k + 1), r);
      out[k].assign(static_cast<std::size_t>(k + 1), -1);
      requests[k].reset(start(planAllreduce(*dups[k], in[k].data(), out[k].data(), k + 1, intType(), kSum)));
    }
    // Plus two on MPI_COMM_WORLD, whose sequence numbers keep them apart.
    std::vector<int> first(3, r == 1 ? 42 : 0), second(3, r == 2 ? 43 : 0);
    std::unique_ptr<CollectiveRequest> b1(start(planBcast(world.commWorld(), first.data(), 3, intType(), 1)));
    std::unique_ptr<CollectiveRequest> b2(start(planBcast(world.commWorld(), second.data(), 3, intType(), 2)));
    wait(*b2);
    for (int k = comms - 1; k >= 0; --k) wait(*requests[k]);
    wait(*b1);
    std::string failed;
    for (int k = 0; k < comms; ++k) {
      if (out[k] != std::vector<int>(static_cast<std::size_t>(k + 1), p * (p - 1) / 2))
        failed += "comm " + std::to_string(k) + "; ";
    }
    if (first != std::vector<int>(3, 42) || second != std::vector<int>(3, 43)) failed += "bcasts; ";
    failures.set(r, failed);
  });
  for (int r = 0; r < p; ++r) {
    INFO("rank " << r << ": " << failures[r]);
    CHECK(failures[r].empty());
  }
}

TEST_CASE("polling progress() completes a collective without waiting", "[coll][nonblocking]") {
  PerRank<int> sums(3), errors(3);
  runRanks(3, [&](World& world) {
    int in = world.rank() + 1, out = 0;
    std::unique_ptr<CollectiveRequest> request(start(planAllreduce(world.commWorld(), &in, &out, 1, intType(), kSum)));
    while (!request->progress()) std::this_thread::yield();
    errors.set(world.rank(), request->status.MPI_ERROR);
    sums.set(world.rank(), out);
  });
  for (int r = 0; r < 3; ++r) {
    CHECK(sums[r] == 6);
    CHECK(errors[r] == MPI_SUCCESS);
  }
}

TEST_CASE("nonblocking and blocking forms send the same messages", "[coll][nonblocking][pattern]") {
  for (int p : {4, 5}) {
    auto patternOf = [&](Mode mode) {
      auto network = runRanks(p, [&](World& world) {
        std::vector<int> data(6, world.rank()), out(6);
        execute(planAllreduce(world.commWorld(), data.data(), out.data(), 6, intType(), kSum), mode);
        execute(planBcast(world.commWorld(), data.data(), 6, intType(), p - 1), mode);
        execute(planAlltoall(world.commWorld(), MPI_IN_PLACE, 0, nullptr, data.data(), 1, intType()), mode);
        execute(planBarrier(world.commWorld()), mode);
      });
      std::vector<std::vector<SentRecord>> sent;
      for (int r = 0; r < p; ++r) sent.push_back(network->sentBy(r));
      return sent;
    };
    const auto blocking = patternOf(Mode::Blocking);
    const auto nonblocking = patternOf(Mode::Nonblocking);
    for (int r = 0; r < p; ++r) {
      const auto& a = blocking[static_cast<std::size_t>(r)];
      const auto& b = nonblocking[static_cast<std::size_t>(r)];
      REQUIRE(a.size() == b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].to == b[i].to);
        CHECK(a[i].payloadBytes == b[i].payloadBytes);
        CHECK(a[i].envelope.tag == b[i].envelope.tag);
        CHECK(a[i].envelope.context == b[i].envelope.context);
      }
    }
  }
}
