#pragma once
// MpiWorld: the ranks of one job and the machinery connecting them. Created with its size
// and placement; each rank binds its own receive endpoint and reports where it listens;
// the creator (launcher, or rank 0 when started by hand) explicitly broadcasts the
// rank-to-host/endpoint table; from then on ranks talk directly, one ordered stream per
// (sender, receiver) pair. A progress thread per world feeds incoming messages to the
// engine, so progress never depends on the user calling into MPI or on spare threads.
// In mock mode no socket is opened at all (see mock_fabric.h).
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mpi/core/engine.h"
#include "mpi/core/fabric.h"
#include "mpi/core/mock_fabric.h"

namespace zmpi::transport {
class RendezvousServer;
class RendezvousClient;
class ZapAuthenticator;
struct LinkKeys;
}  // namespace zmpi::transport

namespace zmpi::mpi {

class Communicator;
class ProcessManager;

struct WorldConfig {
  int rank = 0;
  int size = 1;
  std::string jobId;            // empty: a fresh one (a singleton world)
  std::string rendezvous;       // the creator's endpoint; unused when size == 1 or mock
  bool hostRendezvous = false;  // this process (rank 0) runs the rendezvous server
  std::string host;             // logical host name; default: gethostname()
  std::string bindAddress = "127.0.0.1";
  std::chrono::milliseconds startupTimeout{30000};
  std::shared_ptr<MockNetwork> mock;  // set: mock mode
  // The job's link credentials (ZMPI_JOB_SECRET and ZMPI_ENCRYPT, see job_secret.h);
  // null: links between ranks are not authenticated (started by hand without a secret;
  // warned about once).
  std::shared_ptr<const transport::LinkKeys> linkKeys;
  // Set: a cluster manager (PMIx, PMI-2) started the ranks; its key-value exchange, not a
  // rendezvous, gives every rank the table.
  std::shared_ptr<ProcessManager> manager;
  int universeSize = 0;  // MPI_UNIVERSE_SIZE (ZMPI_UNIVERSE_SIZE, or the manager's); 0: `size`
  int appNum = 0;        // MPI_APPNUM (ZMPI_APPNUM, or the manager's)

  // ZMPI_RANK, ZMPI_SIZE, ZMPI_JOB_ID, ZMPI_RENDEZVOUS, ZMPI_HOST, ZMPI_BIND_ADDRESS,
  // ZMPI_STARTUP_TIMEOUT_MS; ZMPI_LAUNCHED unset with size > 1 means "started by hand":
  // rank 0 hosts the rendezvous. With `manager` (and no ZMPI_RANK) the rank, size and job
  // come from the manager, and without a job secret rank 0 makes one and hands it out
  // through the manager. Nothing set: a 1-rank world.
  static WorldConfig fromEnvironment(std::shared_ptr<ProcessManager> manager = nullptr);
  // ZMPI_STARTUP_TIMEOUT_MS (default 30 s): how long forming the world may take.
  static std::chrono::milliseconds startupTimeoutFromEnvironment();
};

class World {
 public:
  explicit World(const WorldConfig& config);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int universeSize() const { return universeSize_; }
  int appNum() const { return appNum_; }
  bool mock() const { return mock_; }
  const std::string& jobId() const { return jobId_; }
  const std::string& host() const { return hosts_[static_cast<size_t>(rank_)]; }
  const std::string& hostOf(int worldRank) const { return hosts_.at(static_cast<size_t>(worldRank)); }
  // "self", "ipc", "tcp" or "mock": how this rank reaches `worldRank`.
  std::string pathTo(int worldRank) const;
  // How long this rank's exit may wait for messages still queued to `worldRank` (tests).
  std::chrono::milliseconds closingLingerTo(int worldRank) const;
  // Rendezvous payloads this rank sent over bulk data connections (ZmqFabric::sendBulk):
  // what tests look at to tell that path from zmq's.
  uint64_t bulkFramesSent() const;
  // Bulk frames read by waiting threads themselves (Engine::waitersReadBulk).
  uint64_t bulkFramesReadInWait() const;
  // Doorbells this rank rang on same-host peers' zmq sockets, and this rank's threads now
  // asleep on its rings (Engine::setSleepOnRings) -- tests.
  uint64_t doorbellsRung() const;
  uint32_t ringSleepers() const;
  // The pid this rank reads `worldRank`'s large messages from directly (Fabric::singleCopyPid);
  // 0: they take the rings or the network.
  int singleCopyPid(int worldRank) const;
  // Fabric::hostPeerPid.
  int hostPeerPid(int worldRank) const;
  Engine& engine() { return *engine_; }

  Communicator& commWorld() { return *commWorld_; }
  Communicator& commSelf() { return *commSelf_; }
  // Context ids: 0 is MPI_COMM_WORLD, 1 MPI_COMM_SELF; communicator constructors agree on
  // new ones collectively and record the highest used here. Atomic because communicators
  // may be created from several threads (MPI_THREAD_MULTIPLE); ids agreed by concurrent
  // constructions on the same process can still coincide, which MPI leaves to the
  // program to avoid by ordering collective calls consistently.
  int contextIdFloor() const { return contextIdFloor_.load(std::memory_order_acquire); }
  void raiseContextIdFloor(int floor);

  // Tell the creator (launcher) about this rank's end; no-ops in mock and singleton worlds.
  void notifyFinalizing();
  void notifyAborting(int code);

  // Stops the progress thread and closes the fabric. Call after the finalize barrier.
  void shutdown();

 private:
  void progressLoop();
  void exchangeAddresses(const WorldConfig& config);
  // The table from zmpirun's rendezvous (or rank 0's, started by hand): every rank's card.
  std::vector<std::string> exchangeThroughRendezvous(const WorldConfig& config, const std::string& host,
                                                     const std::string& card);

  int rank_;
  int size_;
  int universeSize_;
  int appNum_;
  bool mock_;
  std::string jobId_;
  uint64_t jobHash_;
  std::vector<std::string> hosts_;
  std::unique_ptr<Fabric> fabric_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<transport::RendezvousServer> rendezvousServer_;
  std::unique_ptr<transport::RendezvousClient> rendezvousClient_;
  std::unique_ptr<transport::ZapAuthenticator> zap_;
  std::unique_ptr<Communicator> commWorld_;
  std::unique_ptr<Communicator> commSelf_;
  std::atomic<int> contextIdFloor_{2};
  std::atomic<bool> stopping_{false};
  std::thread progress_;
};

}  // namespace zmpi::mpi
