#include "mpi/capi/predefined_handles.h"

#include <mutex>

#include <mpi.h>

#include "mpi/abi/predefined_objects.h"
#include "mpi/coll/barrier.h"
#include "mpi/comm/communicator.h"
#include "mpi/core/errhandler.h"
#include "mpi/core/world.h"
#include "mpi/datatype/predefined.h"
#include "mpi/op/predefined.h"

namespace zmpi::mpi::capi {

void bindPredefinedHandles() {
  static std::once_flag once;
  std::call_once(once, [] {
    bindPredefinedDatatypes();
    bindPredefinedOps();
    Errhandler::fatal()->setPublicHandle(MPI_ERRORS_ARE_FATAL);
    bindHandle(MPI_ERRORS_ARE_FATAL, HandleKind::Errhandler, Errhandler::fatal());
    Errhandler::returning()->setPublicHandle(MPI_ERRORS_RETURN);
    bindHandle(MPI_ERRORS_RETURN, HandleKind::Errhandler, Errhandler::returning());
    // C programs cannot use MPI::ERRORS_THROW_EXCEPTIONS; treat it as "return".
    bindHandle(&ompi_mpi_errors_throw_exceptions.object, HandleKind::Errhandler, Errhandler::returning());
    bindHandle(MPI_ERRHANDLER_NULL, HandleKind::Errhandler, nullptr);
    bindHandle(MPI_COMM_NULL, HandleKind::Comm, nullptr);
    bindHandle(MPI_GROUP_NULL, HandleKind::Group, nullptr);
    bindHandle(MPI_REQUEST_NULL, HandleKind::Request, nullptr);
    bindHandle(MPI_MESSAGE_NULL, HandleKind::Message, nullptr);
    bindHandle(MPI_MESSAGE_NO_PROC, HandleKind::Message, nullptr);
    bindHandle(MPI_WIN_NULL, HandleKind::Win, nullptr);
    bindHandle(MPI_FILE_NULL, HandleKind::File, nullptr);
    bindHandle(MPI_INFO_NULL, HandleKind::Info, nullptr);
  });
}

namespace {
Group* emptyGroup = nullptr;
}

void bindWorldHandles(World& world) {
  Communicator& commWorld = world.commWorld();
  commWorld.setPublicHandle(MPI_COMM_WORLD);
  commWorld.markPredefined();
  bindHandle(MPI_COMM_WORLD, HandleKind::Comm, &commWorld);
  Communicator& commSelf = world.commSelf();
  commSelf.setPublicHandle(MPI_COMM_SELF);
  commSelf.markPredefined();
  bindHandle(MPI_COMM_SELF, HandleKind::Comm, &commSelf);
  if (!emptyGroup) {
    emptyGroup = new Group({});
    emptyGroup->markPredefined();
    emptyGroup->setPublicHandle(MPI_GROUP_EMPTY);
  }
  bindHandle(MPI_GROUP_EMPTY, HandleKind::Group, emptyGroup);
}

void unbindWorldHandles() {
  bindHandle(MPI_COMM_WORLD, HandleKind::Comm, nullptr);
  bindHandle(MPI_COMM_SELF, HandleKind::Comm, nullptr);
}

void runFinalizeBarrier(World& world) { coll::barrierDissemination(world.commWorld()); }

}  // namespace zmpi::mpi::capi
