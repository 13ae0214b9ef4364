#pragma once
// A reduction operation. apply() combines `count` elements laid out as the datatype lays
// them out in user memory (stride = extent; a derived type of one basic type is reduced
// element by element of that basic type): inout[i] = in[i] (op) inout[i], with `in` the
// left operand, as MPI_Reduce_local defines it. Predefined ops dispatch once per call on
// the basic type, then run a plain loop the compiler vectorises.
#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <string>

#include "mpi/core/handle.h"
#include "mpi/datatype/datatype.h"

namespace zmpi::mpi {

class Op {
 public:
  virtual ~Op();
  Op(const Op&) = delete;
  Op& operator=(const Op&) = delete;

  // Throws MpiError(MPI_ERR_OP) if the op does not apply to the type (e.g. MPI_BAND on
  // MPI_DOUBLE), naming both.
  virtual void apply(const void* in, void* inout, std::size_t count, const Datatype& type) const = 0;
  // As apply(), on buffers holding `count` elements packed (Datatype::pack's layout:
  // count * type.size() bytes, no gaps), as collectives move them. The default unpacks
  // into scratch memory, applies and packs back; predefined ops reduce in place.
  virtual void applyPacked(const void* in, void* inout, std::size_t count, const Datatype& type) const;
  virtual bool commutative() const = 0;
  // True when apply() is known to accept the type without trying it; false when unknown or
  // not (then only apply() tells, throwing MPI_ERR_OP with the reason).
  virtual bool knownToAccept(const Datatype& type) const { return false; }
  bool predefined() const { return predefined_; }

  MPI_Op handle() const { return publicHandle_; }
  void setPublicHandle(MPI_Op handle) { publicHandle_ = handle; }
  std::string name;

  // Reference counting: a user op stays alive while a pending (nonblocking) reduction
  // holds it, even after MPI_Op_free. Predefined ops are never deleted.
  void retain() { refs_.fetch_add(1); }
  void release();

 protected:
  Op();
  void markPredefined() { predefined_ = true; }

 private:
  ompi_op_t handle_;
  MPI_Op publicHandle_ = &handle_;
  bool predefined_ = false;
  std::atomic<int> refs_{1};
};

Op* opOf(MPI_Op handle);  // throws MpiError(MPI_ERR_OP) for null/invalid

// A user function from MPI_Op_create. MPI_User_function receives the program's own
// datatype handle, and is called once per contiguous span of up to INT_MAX elements.
class UserOp : public Op {
 public:
  UserOp(MPI_User_function* function, bool commutative);
  void apply(const void* in, void* inout, std::size_t count, const Datatype& type) const override;
  bool commutative() const override { return commutative_; }

 private:
  MPI_User_function* function_;
  bool commutative_;
};

}  // namespace zmpi::mpi
