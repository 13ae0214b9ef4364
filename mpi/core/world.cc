#include "mpi/core/world.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <random>

#include "mpi/coll/barrier.h"
#include "mpi/comm/communicator.h"
#include "mpi/core/cpu_binding.h"
#include "mpi/core/environment.h"
#include "mpi/core/error.h"
#include "mpi/core/job_secret.h"
#include "mpi/core/peer_table.h"
#include "mpi/core/slurm_environment.h"
#include "mpi/core/zmq_fabric.h"
#include "mpi/init/launch_contract.h"
#include "mpi/init/process_manager.h"
#include "peer_info.pb.h"  // generated from core/peer_info.proto
#include "transport/errors.h"
#include "transport/link_security.h"
#include "transport/log.h"
#include "transport/node_address.h"
#include "transport/rendezvous.h"
#include "transport/socket.h"

namespace zmpi::mpi {
namespace {

const transport::Experiment kUnbindContestedExperiment{
    "unbind-contested", true, "ZMPI_UNBIND_CONTESTED",
    "a rank bound by default gives its binding up when another process keeps taking its core"};

std::string localHostName() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

std::string freshJobId() {
  std::random_device random;
  std::uniform_int_distribution<uint64_t> digits;
  char text[32];
  snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digits(random)));
  return text;
}

}  // namespace

std::chrono::milliseconds WorldConfig::startupTimeoutFromEnvironment() {
  return std::chrono::milliseconds(setting(contract::kStartupTimeoutMs));
}

WorldConfig WorldConfig::fromEnvironment(std::shared_ptr<ProcessManager> manager) {
  WorldConfig config;
  config.startupTimeout = startupTimeoutFromEnvironment();
  config.linkKeys = takeJobKeys();
  if (manager && !settingIfSet(contract::kRank)) {
    const ProcessIdentity& self = manager->identity();
    config.rank = self.rank;
    config.size = self.size;
    config.jobId = self.jobId;
    config.host = settingIfSet(contract::kHost).value_or(self.node);
    const std::string node = config.host.empty() ? localHostName() : config.host;
    config.bindAddress =
        settingIfSet(contract::kBindAddress).value_or(transport::nodeAddress(node, self.localSize == self.size));
    if (!config.linkKeys && config.size > 1) {
      // Only the job's processes and the manager see its key-value store.
      const std::string secret = manager->broadcastFromRankZero(
          "zmpi.secret", self.rank == 0 ? freshJobSecret() : std::string(), config.startupTimeout);
      config.linkKeys = jobKeysFromSecret(secret);
    }
    log::get("mpi")->debug("rank {} of {} started by {} (job {}, node {}, binds {})", self.rank, self.size,
                           manager->name(), self.jobId, node, config.bindAddress);
    config.universeSize = self.universeSize;
    config.appNum = self.appNum;
    config.manager = std::move(manager);
    return config;
  }
  if (!settingIfSet(contract::kRank)) {
    if (auto slurm = slurmBootstrapFromEnvironment()) {
      config.rank = slurm->rank;
      config.size = slurm->size;
      config.jobId = slurm->jobId;
      config.host = settingIfSet(contract::kHost).value_or(slurm->host);
      config.rendezvous = slurm->rendezvous;
      config.bindAddress = settingIfSet(contract::kBindAddress).value_or(slurm->bindAddress);
      config.hostRendezvous = config.rank == 0;
      return config;
    }
  }
  config.size = static_cast<int>(setting(contract::kSize));
  config.rank = static_cast<int>(setting(contract::kRank));
  if (config.size < 1 || config.rank < 0 || config.rank >= config.size) {
    fail(MPI_ERR_OTHER, "ZMPI_RANK=" + std::to_string(config.rank) +
                            " is not a rank of a world of ZMPI_SIZE=" + std::to_string(config.size));
  }
  config.jobId = setting(contract::kJobId);
  config.universeSize = static_cast<int>(settingIfSet(contract::kUniverseSize).value_or(0));
  config.appNum = static_cast<int>(setting(contract::kAppNum));
  config.rendezvous = setting(contract::kRendezvous);
  config.host = setting(contract::kHost);
  config.bindAddress = settingIfSet(contract::kBindAddress).value_or("127.0.0.1");
  if (config.size > 1) {
    if (config.rendezvous.empty()) fail(MPI_ERR_OTHER, "ZMPI_SIZE > 1 needs ZMPI_RENDEZVOUS (the creator's address)");
    if (config.jobId.empty()) config.jobId = "manual-" + config.rendezvous;
    config.hostRendezvous = config.rank == 0 && !setting(contract::kLaunched);
  }
  return config;
}

World::World(const WorldConfig& config)
    : rank_(config.rank),
      size_(config.size),
      universeSize_(config.universeSize > 0 ? config.universeSize : config.size),
      appNum_(config.appNum),
      mock_(config.mock != nullptr),
      jobId_(config.jobId.empty() ? freshJobId() : config.jobId),
      jobHash_(transport::jobHashOf(jobId_)) {
  const std::string host = config.host.empty() ? localHostName() : config.host;
  if (mock_) {
    hosts_.assign(static_cast<size_t>(size_), "mock");
    if (config.mock->hostPerRank()) {
      for (int r = 0; r < size_; ++r) hosts_[static_cast<size_t>(r)] = "mock-" + std::to_string(r);
    }
    fabric_ = std::make_unique<MockFabric>(config.mock, rank_);
  } else {
    exchangeAddresses(WorldConfig(config));
  }
  engine_ = std::make_unique<Engine>(rank_, size_, jobHash_, *fabric_);
  const auto sameHost = std::count(hosts_.begin(), hosts_.end(), hosts_[static_cast<size_t>(rank_)]);
  const bool oversubscribed = !mock_ && sameHost > cpusAllowedAtStart();
  engine_->setOversubscribed(oversubscribed);
  // Also when some peer is reached over zmq: its messages need zmq's I/O thread and our
  // progress thread, and a thread spinning without yielding on one of 2 cores starves them
  // (forced-tcp 8 B ping-pong 37 -> 88 us; raw zmq 21 us).
  engine_->setSpinPolicy(oversubscribed || (!mock_ && fabric_->hasThreadedPeers()), boundToCpus(),
                         mock_ || fabric_->hasFastPeers(), !mock_ && fabric_->hasThreadedPeers());
  // Bound by default, not on request: give the core up when another process contests it.
  if (!mock_ && boundToCpus() && !settingIfSet(contract::kBindTo) && experiment(kUnbindContestedExperiment)) {
    engine_->watchCoreContention();
  }
  // Every peer through zmq (forced tcp, one rank per host): waiting threads receive
  // themselves. With rings to poll the progress thread keeps the inbox (their traffic and
  // the inbox's are served by one loop there).
  engine_->setWaitersReceive(!mock_ && size_ > 1 && !fabric_->hasFastPeers());
  // Every peer on this host: waiting threads sleep on the rings, woken by the senders.
  engine_->setSleepOnRings(!mock_ && fabric_->canSleepOnRings());

  std::vector<int> all(static_cast<size_t>(size_));
  for (int r = 0; r < size_; ++r) all[static_cast<size_t>(r)] = r;
  auto* worldGroup = new Group(std::move(all));
  commWorld_ = std::make_unique<Communicator>(*this, worldGroup, 0, Errhandler::fatal());
  worldGroup->release();
  auto* selfGroup = new Group({rank_});
  commSelf_ = std::make_unique<Communicator>(*this, selfGroup, 1, Errhandler::fatal());
  selfGroup->release();
  commWorld_->name = "MPI_COMM_WORLD";
  commSelf_->name = "MPI_COMM_SELF";

  engine_->startBulkDelivery();
  progress_ = std::thread([this] { progressLoop(); });

  if (!mock_ && size_ > 1) {
    // Every rank maps its same-host peers' mailboxes, then (barrier) every rank removes
    // its own mailbox's name: from here on no crash can leave a segment behind.
    auto& zmqFabric = static_cast<ZmqFabric&>(*fabric_);
    zmqFabric.attachSameHostPeers();
    coll::barrierDissemination(*commWorld_);
    zmqFabric.unlinkMailboxName();
  }
}

void World::exchangeAddresses(const WorldConfig& config) {
  const std::string host = config.host.empty() ? localHostName() : config.host;
  try {
    transport::SocketOptions::defaultLinger();  // a malformed ZMPI_LINGER_MS, named, before any socket
  } catch (const transport::TransportError& error) {
    fail(MPI_ERR_OTHER, std::string("MPI_Init: ") + error.what());
  }
  // A singleton has no peers: nothing to authenticate.
  auto linkKeys = size_ > 1 ? config.linkKeys : nullptr;
  if (linkKeys) {
    zap_ = std::make_unique<transport::ZapAuthenticator>(linkKeys);
    log::get("mpi")->debug("links between the ranks of job {}: {}", jobId_,
                           linkKeys->encrypt ? "encrypted (CURVE)" : "authenticated (PLAIN with the job's token)");
  } else if (size_ > 1 && rank_ == 0) {
    log::get("mpi")->warn(
        "no job secret (ZMPI_JOB_SECRET or ZMPI_JOB_SECRET_FILE): the links between the ranks of job {} are not "
        "authenticated, so any process that can reach their ports can inject messages; zmpirun sets a secret, "
        "when starting ranks by hand give every rank the same ZMPI_JOB_SECRET_FILE (mode 0600)",
        jobId_);
  }
  auto fabric = std::make_unique<ZmqFabric>(jobHash_, rank_, size_, linkKeys);
  PeerAddress me = fabric->bind(host, config.bindAddress, jobId_);
  if (size_ == 1) {
    hosts_ = {host};
    fabric->setPeers({me});
    fabric_ = std::move(fabric);
    return;
  }
  proto::PeerInfo info;
  info.set_rank(rank_);
  info.set_host(host);
  info.set_tcp_endpoint(me.tcpEndpoint);
  info.set_ipc_endpoint(me.ipcEndpoint);
  info.set_pid(me.pid);
  info.set_shm_name(me.shmName);
  info.set_data_host(me.dataHost);
  info.set_data_port(me.dataPort);
  info.set_pid_namespace(me.pidNamespace);
  const std::vector<std::string> table =
      config.manager ? config.manager->allgather("zmpi.card", info.SerializeAsString(), config.startupTimeout)
                     : exchangeThroughRendezvous(config, host, info.SerializeAsString());
  std::vector<PeerAddress> peers;
  try {
    peers = decodePeerTable(table, size_);
  } catch (const PeerTableError& error) {
    fail(MPI_ERR_OTHER, std::string("MPI_Init: ") + error.what() +
                            (config.manager ? std::string(" (published through ") + config.manager->name() + ")" : ""));
  }
  hosts_.resize(static_cast<size_t>(size_));
  for (int r = 0; r < size_; ++r) hosts_[static_cast<size_t>(r)] = peers[static_cast<size_t>(r)].host;
  fabric->setPeers(std::move(peers));
  fabric_ = std::move(fabric);
}

std::vector<std::string> World::exchangeThroughRendezvous(const WorldConfig& config, const std::string& host,
                                                          const std::string& card) {
  auto linkKeys = config.linkKeys;
  std::string rendezvous = config.rendezvous;
  try {
    if (config.hostRendezvous) {
      rendezvousServer_ = std::make_unique<transport::RendezvousServer>(
          config.rendezvous, jobHash_, size_, config.startupTimeout, nullptr, nullptr, linkKeys);
      rendezvous = rendezvousServer_->endpoint();
    }
    rendezvousClient_ = std::make_unique<transport::RendezvousClient>(rendezvous, jobHash_, rank_, size_, linkKeys);
  } catch (const transport::TransportError& error) {
    fail(MPI_ERR_OTHER, std::string("MPI_Init: rank ") + std::to_string(rank_) + " on " + host +
                            " cannot reach the rendezvous at " + config.rendezvous + ": " + error.what());
  }
  try {
    // A little longer than the server's own start-up timeout, so that its message naming
    // the missing ranks arrives before our own timeout fires.
    return rendezvousClient_->exchange(card, config.startupTimeout + std::chrono::seconds(2));
  } catch (const transport::TransportError& error) {
    fail(MPI_ERR_OTHER, std::string("MPI_Init: rank ") + std::to_string(rank_) + " on " + host +
                            " could not form the world of " + std::to_string(size_) + " ranks: " + error.what());
  }
}

World::~World() { shutdown(); }

std::string World::pathTo(int worldRank) const {
  if (mock_) return "mock";
  return static_cast<ZmqFabric&>(*fabric_).pathTo(worldRank);
}

std::chrono::milliseconds World::closingLingerTo(int worldRank) const {
  if (mock_) return std::chrono::milliseconds(0);
  return static_cast<ZmqFabric&>(*fabric_).closingLingerTo(worldRank);
}

uint64_t World::bulkFramesSent() const {
  if (mock_) return 0;
  return static_cast<ZmqFabric&>(*fabric_).bulkFramesSent();
}

uint64_t World::bulkFramesReadInWait() const {
  if (mock_) return 0;
  return static_cast<ZmqFabric&>(*fabric_).bulkFramesReadInWait();
}

uint64_t World::doorbellsRung() const {
  if (mock_) return 0;
  return static_cast<ZmqFabric&>(*fabric_).doorbellsRung();
}

uint32_t World::ringSleepers() const {
  if (mock_) return 0;
  return static_cast<ZmqFabric&>(*fabric_).ringSleepers();
}

int World::singleCopyPid(int worldRank) const { return fabric_->singleCopyPid(worldRank); }
int World::hostPeerPid(int worldRank) const { return fabric_->hostPeerPid(worldRank); }

void World::progressLoop() {
  // Spin briefly, then block: after any traffic the thread keeps polling (yielding the
  // CPU each round, so 8 ranks on 2 cores still progress) for engine.spinTime(); then it
  // leaves the shared-memory pollers, re-checks (a sender that wrote just before then rang
  // no doorbell), and blocks on the zmq inbox, where doorbells and remote traffic arrive.
  // While a user thread spins in a wait it polls the rings itself (Engine::spinUntil), so
  // this thread leaves them alone and spins only for its own traffic: two threads polling
  // the same rings would only take turns on the core and hand each message across.
  auto logger = log::get("mpi");
  // Where waiting threads receive themselves, one asks for the inbox (ReceiveLease): we
  // lend it and park until it is ours again.
  auto deliver = [this](transport::WireMessage&& message) { engine_->onMessage(std::move(message)); };
  ReceiveLease& lease = engine_->receiveLease();
  struct LeaveLease {
    ReceiveLease& lease;
    ~LeaveLease() { lease.progressExited(); }
  } leaveLease{lease};
  auto lastWork = std::chrono::steady_clock::now();
  while (!stopping_.load()) {
    try {
      if (lease.wanted()) {
        if (!lease.lendAndWait()) break;
        continue;
      }
      PollRegistration& polling = engine_->pollRegistration();
      // A spinning user thread also writes what is queued for full rings (pollFast).
      const bool userSpinning = polling.userSpinning();
      std::size_t work = userSpinning ? 0 : engine_->pollRings();
      const bool queued = userSpinning ? fabric_->hasQueued() : fabric_->flushQueued();
      bool zmqWork = false;
      if (auto message = fabric_->receive(std::chrono::milliseconds(0))) {
        deliver(std::move(*message));
        zmqWork = true;
      }
      // A message from zmq starts a spin only where it is the rings' traffic's companion
      // (Engine::spinsAfterZmqTraffic): a rank with both same-host and remote peers blocks
      // between remote messages, which then wake it, but still looks for more at once.
      if (zmqWork && engine_->spinsAfterZmqTraffic()) ++work;
      const auto now = std::chrono::steady_clock::now();
      if (work > 0) {
        lastWork = now;
        continue;
      }
      if (zmqWork) continue;
      if (now - lastWork < engine_->spinTime()) {
        std::this_thread::yield();
        continue;
      }
      fabric_->leavePolling();
      // shutdown() sets stopping_ and then wakes us; a wake-up consumed by the polls above
      // would be lost, so look at the flag again right before blocking.
      if (stopping_.load()) break;
      // A user thread still polling looks at the rings again after it leaves them (after
      // us, in the pollers' order); otherwise whatever was written before we left is ours.
      if (!polling.userSpinning() && fabric_->hasFastData()) {
        fabric_->enterPolling();
        continue;
      }
      // Fragments still waiting for ring space: look again soon even if nobody wakes us.
      // Otherwise block, but not forever (kRingRecheck): a doorbell can be lost with its
      // sender; the data in the ring must still be seen.
      std::chrono::milliseconds timeout = queued ? std::chrono::milliseconds(1) : kRingRecheck;
      // A user registration lingering after a wait keeps senders from ringing: drop it
      // once no user thread has polled for a while, and look at the rings ourselves.
      if (polling.registered()) {
        const auto current = std::chrono::steady_clock::now();
        const auto deadline = polling.lingerDeadline(current);
        if (!polling.userSpinning() && current >= deadline) {
          if (polling.dropIfIdle() && fabric_->hasFastData()) {
            fabric_->enterPolling();
            continue;
          }
        } else {
          timeout = std::min(timeout, std::max(std::chrono::milliseconds(1),
                                               std::chrono::ceil<std::chrono::milliseconds>(deadline - current)));
        }
      }
      auto message = fabric_->receive(timeout);
      fabric_->enterPolling();
      // Spin again after traffic (a message, a doorbell for rings nobody else polls) or
      // while fragments wait for ring space; a timeout or a plain wake-up goes straight
      // back to sleep (a lingering registration wakes us every kLinger).
      if (message) {
        deliver(std::move(*message));
        if (engine_->spinsAfterZmqTraffic()) lastWork = std::chrono::steady_clock::now();
      } else if (queued || (!polling.userSpinning() && fabric_->hasFastData())) {
        lastWork = std::chrono::steady_clock::now();
      }
    } catch (const std::exception& error) {
      logger->error("progress: {}", error.what());
      engine_->abort(error.what());
      return;
    }
  }
}

void World::raiseContextIdFloor(int floor) {
  int current = contextIdFloor_.load(std::memory_order_acquire);
  while (current < floor && !contextIdFloor_.compare_exchange_weak(current, floor, std::memory_order_acq_rel)) {
  }
}

void World::notifyFinalizing() {
  if (rendezvousClient_) rendezvousClient_->notify(transport::RendezvousEvent::Finalizing, 0);
}

void World::notifyAborting(int code) {
  if (rendezvousClient_) {
    rendezvousClient_->notifyAndConfirm(transport::RendezvousEvent::Aborting, code, std::chrono::milliseconds(300));
  }
}

void World::shutdown() {
  if (stopping_.exchange(true)) return;
  fabric_->wake();
  engine_->receiveLease().close();
  if (progress_.joinable()) progress_.join();
  commSelf_.reset();
  commWorld_.reset();
  fabric_->close();
  rendezvousClient_.reset();
  rendezvousServer_.reset();
  engine_.reset();
  fabric_.reset();
  zap_.reset();  // after every authenticated server socket
}

}  // namespace zmpi::mpi
