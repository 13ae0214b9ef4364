// Plans of the reductions: reduce, allreduce, reduce_scatter(_block), scan, exscan.
// Operands stay in their native layout (reduction.h). The algorithms work in a span the
// program's buffer itself provides when its datatype is contiguous (no gaps to protect),
// and in scratch otherwise, copied out element by element at the end.
#include <mpi.h>

#include <numeric>

#include "mpi/coll/allreduce_rabenseifner.h"
#include "mpi/coll/allreduce_recursive_doubling.h"
#include "mpi/coll/allreduce_ring.h"
#include "mpi/coll/collectives.h"
#include "mpi/coll/layout.h"
#include "mpi/coll/reduce_binomial.h"
#include "mpi/coll/reduce_scatter_pairwise.h"
#include "mpi/coll/scan_recursive_doubling.h"
#include "mpi/coll/scatter_linear.h"
#include "mpi/coll/select.h"
#include "mpi/core/error.h"

namespace zmpi::mpi::coll {
namespace {

// Step base of the scatter phase of a non-commutative reduce-scatter (reduce uses 0..1).
constexpr int kScatterPhaseStep = 8;

const char* inputOf(const Reduction& reduction, const void* sendbuf, const void* recvbuf) {
  return reduction.spanOf(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf);
}

// Where the result is computed: the program's buffer when its datatype is contiguous and
// `direct` allows, else scratch; finish() copies scratch out.
char* workspace(Schedule& s, const Reduction& reduction, std::size_t elements, void* recvbuf, bool direct) {
  if (direct && reduction.type().contiguous()) return reduction.spanOf(recvbuf);
  return s.scratch(reduction.spanBytes(elements));
}

void finish(Schedule& s, const Reduction& reduction, std::size_t elements, const char* work, void* recvbuf) {
  char* target = reduction.spanOf(recvbuf);
  if (work == target || elements == 0) return;
  s.local([reduction, work, target, elements] { reduction.copyElements(work, target, elements); });
}

Plan newPlan(Communicator& comm, const Datatype& type, const Op& op) {
  auto s = std::make_unique<Schedule>(comm);
  s->hold(const_cast<Datatype*>(&type));
  s->hold(const_cast<Op*>(&op));
  return s;
}

}  // namespace

Plan planReduce(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
                int root) {
  Plan s = newPlan(comm, type, op);
  if (count == 0) return s;
  const Reduction reduction(op, type, static_cast<std::size_t>(count));
  const bool isRoot = comm.rank() == root;
  const char* input = isRoot ? inputOf(reduction, sendbuf, recvbuf) : reduction.spanOf(sendbuf);
  char* result = isRoot ? workspace(*s, reduction, reduction.count(), recvbuf, true) : nullptr;
  reduceBinomial(*s, reduction, input, result, root);
  if (isRoot) finish(*s, reduction, reduction.count(), result, recvbuf);
  return s;
}

Plan planAllreduce(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                   const Op& op) {
  Plan s = newPlan(comm, type, op);
  if (count == 0) return s;
  const Reduction reduction(op, type, static_cast<std::size_t>(count));
  s->setSegmentBytes(segmentBytes(comm));
  char* acc = workspace(*s, reduction, reduction.count(), recvbuf, true);
  copyBytes(*s, inputOf(reduction, sendbuf, recvbuf), acc, reduction.bytes());
  switch (selectAllreduce(reduction.bytes(), reduction.count(), comm.size(), reduction.commutative(),
                          reduction.splittable(), pairEagerLimit(comm))) {
    case AllreduceAlgorithm::RecursiveDoubling:
      allreduceRecursiveDoubling(*s, reduction, acc);
      break;
    case AllreduceAlgorithm::Rabenseifner:
      allreduceRabenseifner(*s, reduction, acc);
      break;
    case AllreduceAlgorithm::Ring:
      allreduceRing(*s, reduction, acc);
      break;
  }
  finish(*s, reduction, reduction.count(), acc, recvbuf);
  return s;
}

Plan planReduceScatter(Communicator& comm, const void* sendbuf, void* recvbuf, const int* recvcounts,
                       const Datatype& type, const Op& op) {
  Plan s = newPlan(comm, type, op);
  const int p = comm.size();
  const int r = comm.rank();
  std::vector<std::size_t> counts(recvcounts, recvcounts + p);
  const std::size_t total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  if (total == 0) return s;
  const Reduction whole(op, type, total);
  const std::size_t mine = counts[static_cast<std::size_t>(r)];
  if (!whole.splittable() && p > 1) {
    fail(MPI_ERR_TYPE, "reduce-scatter needs a datatype whose elements do not overlap (extent >= true extent > 0)");
  }
  // In place, the result's place overlaps the operand other ranks still need.
  char* result = workspace(*s, whole, mine, recvbuf, sendbuf != MPI_IN_PLACE);
  const char* input = inputOf(whole, sendbuf, recvbuf);
  if (whole.commutative()) {
    reduceScatterPairwise(*s, whole, input, result, counts);
  } else {
    // Rank order: reduce everything on rank 0 along the order-preserving tree, then scatter.
    char* full = r == 0 ? s->scratch(whole.bytes()) : nullptr;
    reduceBinomial(*s, whole, input, full, 0);
    s->fence();
    std::vector<Piece> pieces;
    std::size_t first = 0;
    for (std::size_t count : counts) {
      pieces.push_back({static_cast<std::ptrdiff_t>(whole.offsetOf(first)), whole.spanBytes(count)});
      first += count;
    }
    s->setStepBase(kScatterPhaseStep);
    scatterLinear(*s, full, pieces, result, whole.spanBytes(mine), 0);
    s->setStepBase(0);
  }
  s->fence();
  finish(*s, whole, mine, result, recvbuf);
  return s;
}

Plan planReduceScatterBlock(Communicator& comm, const void* sendbuf, void* recvbuf, int recvcount, const Datatype& type,
                            const Op& op) {
  const std::vector<int> counts(static_cast<std::size_t>(comm.size()), recvcount);
  return planReduceScatter(comm, sendbuf, recvbuf, counts.data(), type, op);
}

Plan planScan(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op) {
  Plan s = newPlan(comm, type, op);
  if (count == 0) return s;
  const Reduction reduction(op, type, static_cast<std::size_t>(count));
  char* result = workspace(*s, reduction, reduction.count(), recvbuf, true);
  scanRecursiveDoubling(*s, reduction, inputOf(reduction, sendbuf, recvbuf), result);
  s->fence();
  finish(*s, reduction, reduction.count(), result, recvbuf);
  return s;
}

Plan planExscan(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op) {
  Plan s = newPlan(comm, type, op);
  if (count == 0) return s;
  const Reduction reduction(op, type, static_cast<std::size_t>(count));
  char* result = workspace(*s, reduction, reduction.count(), recvbuf, true);
  exscanRecursiveDoubling(*s, reduction, inputOf(reduction, sendbuf, recvbuf), result);
  s->fence();
  // Rank 0's result is undefined: its buffer is left as the program gave it.
  if (comm.rank() != 0) finish(*s, reduction, reduction.count(), result, recvbuf);
  return s;
}

}  // namespace zmpi::mpi::coll
