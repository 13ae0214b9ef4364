#include "mpi/core/errhandler.h"

#include "mpi/core/error.h"

namespace zmpi::mpi {

Errhandler::Errhandler(Kind kind, void (*function)(), bool predefined)
    : kind_(kind), function_(function), predefined_(predefined) {
  bindHandle(&handle_, HandleKind::Errhandler, this);
}

Errhandler::~Errhandler() { retireHandle(handle_.header); }

void Errhandler::retain() {
  if (!predefined_) references_.fetch_add(1, std::memory_order_relaxed);
}

void Errhandler::release() {
  if (!predefined_ && references_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

Errhandler* Errhandler::fatal() {
  static Errhandler* handler = new Errhandler(Kind::Fatal, nullptr, true);
  return handler;
}

Errhandler* Errhandler::returning() {
  static Errhandler* handler = new Errhandler(Kind::Return, nullptr, true);
  return handler;
}

Errhandler* errhandlerOf(MPI_Errhandler handle) {
  if (!isHandleOf(handle, HandleKind::Errhandler) || implOf<Errhandler>(handle) == nullptr) {
    fail(MPI_ERR_ARG, "invalid error handler");
  }
  return implOf<Errhandler>(handle);
}

}  // namespace zmpi::mpi
