#pragma once
// Predefined datatypes and ops by their MPI handles, and ownership of a derived datatype,
// for the unit tests: one definition for every file (the files share unity batches, where
// two files' helpers of one name would clash).
#include <mpi.h>

#include <memory>

#include "mpi/datatype/datatype.h"
#include "mpi/datatype/predefined.h"
#include "mpi/op/op.h"
#include "mpi/op/predefined.h"

namespace zmpi::mpi::testing {

struct Release {
  void operator()(Datatype* type) const { type->release(); }
};
// A derived datatype released at the end of the scope.
using Owned = std::unique_ptr<Datatype, Release>;

inline Datatype& basic(MPI_Datatype handle) {
  bindPredefinedDatatypes();
  return *datatypeOf(handle);
}
inline Op& op(MPI_Op handle) {
  bindPredefinedOps();
  return *opOf(handle);
}
inline Datatype& intType() { return basic(MPI_INT); }
inline Datatype& doubleType() { return basic(MPI_DOUBLE); }

}  // namespace zmpi::mpi::testing
