#include "mpi/comm/communicator.h"

#include "mpi/coll/shm_area.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"

namespace zmpi::mpi {

Communicator::Communicator(World& world, Group* group, int contextId, Errhandler* errhandler)
    : world_(world), group_(group), peers_(group), contextId_(contextId), errhandler_(errhandler) {
  bindHandle(&handle_, HandleKind::Comm, this);
  group_->retain();
  rank_ = group_->rankOfWorld(world.rank());
}

Communicator::Communicator(World& world, Group* group, Group* remote, int contextId, Errhandler* errhandler)
    : Communicator(world, group, contextId, errhandler) {
  remote_ = remote;
  peers_ = remote;
  remote_->retain();
}

Communicator::~Communicator() {
  retireHandle(handle_.header);
  bridge.reset();
  if (remote_ != nullptr) remote_->release();
  group_->release();
}

MPI_Comm Communicator::publish() {
  counted_ = true;
  return handle();
}

bool Communicator::retain() {
  if (!counted_) return false;
  references_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void Communicator::release() {
  if (references_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

void failInvalidCommunicator() { fail(MPI_ERR_COMM, "invalid communicator"); }

}  // namespace zmpi::mpi
