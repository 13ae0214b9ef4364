#pragma once
// A communicator: a group, this process's rank in it, and a context id that every message
// on it carries. User point-to-point traffic uses context `2 * id`, collectives `2 * id + 1`
// (STYLE.md point 3), so a collective never matches a user's receive and messages on one
// communicator never match receives on another.
#include <mpi.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "mpi/comm/group.h"
#include "mpi/core/errhandler.h"
#include "mpi/core/handle.h"

namespace zmpi::mpi {

class World;

// Topology information attached to a communicator (Cartesian, graph, dist graph);
// defined in mpi/topo/.
struct Topology;

namespace coll {
class ShmArea;
}  // namespace coll

class Communicator {
 public:
  // `myWorldRank` is this process's rank in its world (several worlds may share a process
  // in mock mode, so it is passed rather than looked up).
  Communicator(World& world, Group* group, int contextId, Errhandler* errhandler);
  // An intercommunicator (MPI-3.1 6.6): `group` is the local group, `remote` the other one.
  // Point-to-point ranks name the remote group; collectives run over `bridge` (below).
  Communicator(World& world, Group* group, Group* remote, int contextId, Errhandler* errhandler);
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  World& world() { return world_; }
  int rank() const { return rank_; }
  int size() const { return group_->size(); }
  Group& group() { return *group_; }
  // The group point-to-point ranks name: the remote group of an intercommunicator, the
  // group itself otherwise (one pointer either way: the send path pays nothing for it).
  int peerSize() const { return peers_->size(); }
  int worldRankOf(int rank) const { return peers_->worldRankOf(rank); }
  bool isInter() const { return remote_ != nullptr; }
  Group& remoteGroup() { return *remote_; }
  // A receive's or probe's source in world ranks; -1 for MPI_ANY_SOURCE and MPI_PROC_NULL
  // (no one peer to wait on).
  int worldRankOfSource(int source) const { return source >= 0 ? worldRankOf(source) : -1; }
  int contextId() const { return contextId_; }
  int p2pContext() const { return 2 * contextId_; }
  int collectiveContext() const { return 2 * contextId_ + 1; }

  MPI_Comm handle() { return publicHandle_; }
  void setPublicHandle(MPI_Comm handle) { publicHandle_ = handle; }

  Errhandler* errhandler() const { return errhandler_.get(); }
  void setErrhandler(Errhandler* errhandler) { errhandler_.reset(errhandler); }

  std::string name;
  std::map<int, void*> attributes;  // keyval -> value (MPI_Comm_set_attr)
  std::shared_ptr<Topology> topology;

  // Intercommunicators only: an intracommunicator over both groups that the program never
  // sees, with a context of its own. Intercommunicator collectives are schedules over it
  // (coll/inter.h) and constructors agree over it (comm/intercomm.h). The group whose
  // leader has the lower world rank comes first in it (`localFirst` on its members).
  std::unique_ptr<Communicator> bridge;
  bool localFirst = false;
  int bridgeRankOfLocal(int rank) const { return localFirst ? rank : remote_->size() + rank; }
  int bridgeRankOfRemote(int rank) const { return localFirst ? group_->size() + rank : rank; }

  // A per-communicator sequence for collective operations, folded into their tags so
  // back-to-back (or nonblocking, overlapping) collectives never cross-match.
  uint32_t nextCollectiveSequence() { return collectiveSequence_++; }

  // Same-host shared-memory collectives (coll/shm_area.h): the segment, set up by the
  // first call that asks, and whether that was tried. Only the thread running this
  // communicator's collective touches them (MPI forbids concurrent ones on a communicator).
  std::unique_ptr<coll::ShmArea> collShm;
  bool collShmTried = false;

  bool predefined() const { return predefined_; }
  void markPredefined() { predefined_ = true; }

  // A communicator the program holds a handle to lives until MPI_Comm_free *and* the end
  // of every request on it (MPI-3.1 6.4.3: pending operations complete normally). The
  // handle is one reference, each request another. Communicators zmpi owns itself
  // (MPI_COMM_WORLD, a window's or a file's) are not counted: retain() says false.
  MPI_Comm publish();  // hands it to the program: counted from now on
  bool retain();       // true if counted (then release() must follow)
  void release();      // deletes it with the last reference

 private:
  ompi_communicator_t handle_;
  World& world_;
  MPI_Comm publicHandle_ = &handle_;
  Group* group_;
  Group* remote_ = nullptr;
  Group* peers_;
  int rank_;
  int contextId_;
  ErrhandlerRef errhandler_;
  std::atomic<uint32_t> collectiveSequence_{0};
  bool predefined_ = false;
  bool counted_ = false;
  std::atomic<int> references_{1};
};

[[noreturn, gnu::cold]] void failInvalidCommunicator();

// Throws MPI_ERR_COMM (also for MPI_COMM_NULL). Inline: every communication call looks its
// communicator up, and a call of its own was a tenth of a small send's instructions.
inline Communicator* communicatorOf(MPI_Comm handle) {
  if (!isHandleOf(handle, HandleKind::Comm) || implOf<Communicator>(handle) == nullptr) [[unlikely]]
    failInvalidCommunicator();
  return implOf<Communicator>(handle);
}

}  // namespace zmpi::mpi
