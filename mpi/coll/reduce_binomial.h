#pragma once
#include "mpi/coll/reduction.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Binomial-tree reduce (Thakur, Rabenseifner & Gropp, "Optimization of Collective
// Communication Operations in MPICH", IJHPCA 2005, short messages): relative
// rank v receives the partial results of its children v + 2^k (2^k < lowbit(v)) in
// increasing k, folding each in as (own ranks) op (child's ranks), then sends its partial
// result to v - lowbit(v). ceil(log2 p) rounds. Each partial covers a contiguous range
// of relative ranks with the lower ones on the left, so a tree rooted at rank 0 keeps rank
// order: commutative ops use a tree rooted at `root`, others one rooted at 0 that then
// sends the result to `root`. `input` is this rank's operand, `result` (root only) where
// the result goes; both span pointers (reduction.h), and they may be the same buffer.
void reduceBinomial(Schedule& schedule, const Reduction& reduction, const char* input, char* result, int root);

}  // namespace zmpi::mpi::coll
