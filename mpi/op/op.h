#pragma once
// A reduction operation. apply() combines `count` elements laid out as the datatype lays
// them out in user memory (stride = extent; a derived type of one basic type is reduced
// element by element of that basic type): inout[i] = in[i] (op) inout[i], with `in` the
// left operand, as MPI_Reduce_local defines it. Predefined ops dispatch once per call on
// the basic type, then run a plain loop the compiler vectorises.
#include <atomic>
#include <cstddef>

#include <mpi.h>

#include "mpi/core/handle.h"
#include "mpi/datatype/datatype.h"

namespace zmpi::mpi {

class Op {
 public:
  virtual ~Op();
  // Throws MpiError(MPI_ERR_OP) if the op does not apply to the type (e.g. MPI_BAND on
  // MPI_DOUBLE), naming both.
  virtual void apply(const void* in, void* inout, std::size_t count, const Datatype& type) const = 0;
  virtual bool commutative() const = 0;
  MPI_Op handle() { return publicHandle_; }
  void setPublicHandle(MPI_Op handle) { publicHandle_ = handle; }
  std::string name;

 protected:
  Op();

 private:
  ompi_op_t handle_;
  MPI_Op publicHandle_ = &handle_;
};

Op* opOf(MPI_Op handle);  // throws MpiError(MPI_ERR_OP) for null/invalid

}  // namespace zmpi::mpi
