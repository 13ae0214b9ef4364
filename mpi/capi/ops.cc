// Reduction-op entry points: user ops (MPI_Op_create/free), MPI_Op_commutative and
// MPI_Reduce_local. The kernels are in mpi/op/.
#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"
#include "mpi/op/op.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

extern "C" {

int PMPI_Op_create(MPI_User_function* function, int commute, MPI_Op* op) {
  return guarded("MPI_Op_create", [&] {
    pointerArg(reinterpret_cast<const void*>(function), "user_fn");
    pointerArg(op, "op");
    *op = (new UserOp(function, commute != 0))->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Op_create)

// A reduction still using the op holds its own reference (Op::retain).
int PMPI_Op_free(MPI_Op* op) {
  return guarded("MPI_Op_free", [&] {
    pointerArg(op, "op");
    Op* o = opOf(*op);
    if (o->predefined()) fail(MPI_ERR_OP, "cannot free the predefined op " + o->name);
    o->release();
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Op_free)

int PMPI_Op_commutative(MPI_Op op, int* commute) {
  return guarded("MPI_Op_commutative", [&] {
    pointerArg(commute, "commute");
    *commute = opOf(op)->commutative() ? 1 : 0;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Op_commutative)

int PMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  return guarded("MPI_Reduce_local", [&] {
    countArg(count);
    const Datatype& type = typeArg(datatype);
    const Op& o = *opOf(op);
    bufferArg(inbuf, count, type);
    bufferArg(inoutbuf, count, type);
    if (count > 0 && inbuf == MPI_IN_PLACE)
      fail(MPI_ERR_BUFFER, "inbuf is MPI_IN_PLACE, which MPI_Reduce_local does not allow");
    o.apply(inbuf, inoutbuf, static_cast<std::size_t>(count), type);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Reduce_local)

}  // extern "C"
