#include "mpi/rma/protocol.h"

#include <array>
#include <string>

#include "mpi/core/error.h"
#include "mpi/op/op.h"
#include "mpi/op/predefined.h"

namespace zmpi::mpi::rma {
namespace {

// The ops MPI allows in accumulate operations (MPI 3.1 section 11.3.4), in a fixed order
// shared by every process of the job.
const std::array<MPI_Op, 14>& accumulateOps() {
  static const std::array<MPI_Op, 14> ops = {MPI_MAX,    MPI_MIN,    MPI_SUM,     MPI_PROD, MPI_LAND,
                                             MPI_BAND,   MPI_LOR,    MPI_BOR,     MPI_LXOR, MPI_BXOR,
                                             MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
  return ops;
}

}  // namespace

uint8_t opCode(const Op& op) {
  const auto& ops = accumulateOps();
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (op.handle() == ops[i]) return static_cast<uint8_t>(i);
  }
  fail(MPI_ERR_OP, "accumulate operations take predefined ops only, not " +
                       (op.name.empty() ? std::string("a user-defined op") : op.name));
}

const Op& opOfCode(uint8_t code) {
  const auto& ops = accumulateOps();
  if (code >= ops.size()) fail(MPI_ERR_OP, "unknown accumulate op code " + std::to_string(code));
  bindPredefinedOps();
  return *opOf(ops[code]);
}

bool isReplaceOrNoOp(const Op& op) { return op.handle() == MPI_REPLACE || op.handle() == MPI_NO_OP; }

}  // namespace zmpi::mpi::rma
