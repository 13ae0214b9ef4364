#pragma once
// Test helpers: N mock-mode worlds run as threads in this process (no sockets), and
// byte-level point-to-point on their MPI_COMM_WORLD.
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/core/world.h"
#include "mpi/datatype/predefined.h"

namespace zmpi::mpi::testing {

// Runs a world per rank of a job of `size`, each on a thread of its own: `configure` fills in
// what differs between harnesses (mock network, rendezvous, host, keys), body(world) runs,
// the world shuts down. Joins them all, then rethrows the first failure (by rank) here.
inline void runWorldThreads(int size, const std::function<void(WorldConfig&)>& configure,
                            const std::function<void(World&)>& body) {
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(static_cast<size_t>(size));
  for (int rank = 0; rank < size; ++rank) {
    threads.emplace_back([&, rank] {
      try {
        WorldConfig config;
        config.rank = rank;
        config.size = size;
        configure(config);
        World world(config);
        body(world);
        world.shutdown();
      } catch (...) {
        errors[static_cast<size_t>(rank)] = std::current_exception();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

// Runs body(world) on `size` mock worlds (runWorldThreads) over a network that `prepare`
// sets up first (MockNetwork's setters); returns the network, for its records.
inline std::shared_ptr<MockNetwork> runMockWorldsOn(int size, const std::function<void(MockNetwork&)>& prepare,
                                                    const std::function<void(World&)>& body) {
  auto network = std::make_shared<MockNetwork>(size);
  prepare(*network);
  runWorldThreads(
      size,
      [&](WorldConfig& config) {
        config.jobId = "mock";
        config.mock = network;
      },
      body);
  return network;
}

// Runs body(world) on `size` mock worlds (runWorldThreads). `eagerLimit`, `dataPieceBytes`,
// `singleCopyPid`: see MockNetwork::setEagerLimit, setDataPieceBytes, setSingleCopyPid.
inline std::shared_ptr<MockNetwork> runMockWorlds(int size, const std::function<void(World&)>& body,
                                                  std::size_t eagerLimit = 0, std::size_t dataPieceBytes = 0,
                                                  int singleCopyPid = 0) {
  return runMockWorldsOn(
      size,
      [&](MockNetwork& network) {
        network.setEagerLimit(eagerLimit);
        network.setDataPieceBytes(dataPieceBytes);
        network.setSingleCopyPid(singleCopyPid);
      },
      body);
}

inline std::unique_ptr<Request> makeRequest(World& world, Request::Kind kind, void* data, size_t bytes, int peer,
                                            int tag, SendMode mode = SendMode::Standard) {
  auto request = std::make_unique<Request>(kind);
  Communicator& comm = world.commWorld();
  request->comm = &comm;
  request->buffer = data;
  request->count = static_cast<int>(bytes);
  request->type = byteType();
  request->peer = peer;
  request->commRank = comm.rank();
  request->tag = tag;
  request->context = comm.p2pContext();
  request->mode = mode;
  request->peerWorld = peer >= 0 ? comm.worldRankOf(peer) : -1;
  return request;
}

inline void sendBytes(World& world, int dest, int tag, const void* data, size_t bytes,
                      SendMode mode = SendMode::Standard) {
  auto request = makeRequest(world, Request::Kind::Send, const_cast<void*>(data), bytes, dest, tag, mode);
  world.engine().startSend(*request);
  world.engine().wait(*request);
}

inline MPI_Status recvBytes(World& world, int source, int tag, void* data, size_t bytes) {
  auto request = makeRequest(world, Request::Kind::Recv, data, bytes, source, tag);
  world.engine().startRecv(*request);
  world.engine().wait(*request);
  return request->status;
}

}  // namespace zmpi::mpi::testing
