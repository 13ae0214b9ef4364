#pragma once
#include "mpi/coll/reduction.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Recursive-doubling allreduce (Thakur, Rabenseifner & Gropp, "Optimization of Collective
// Communication Operations in MPICH", IJHPCA 2005, short messages):
// log2 p' rounds, in round k ranks r and r XOR 2^k exchange their whole partial results.
// For p not a power of two (p = p' + rem), the first 2 rem ranks pair up first: each even
// one hands its operand to the odd one above it, sits out, and gets the result back at
// the end. Both partners of a round compute (lower ranks) op (higher ranks) from the same
// bytes, so every rank ends with bit-identical results, in rank order for non-commutative
// ops. `acc` (a span pointer, reduction.h) holds the operand and receives the result.
void allreduceRecursiveDoubling(Schedule& schedule, const Reduction& reduction, char* acc);

// The rank pairing both recursive-doubling and Rabenseifner allreduce share: the largest
// power of two <= p, and this rank's rank among those p' (-1 for one that sits out).
struct Fold {
  int pof2;
  int rem;
  int newRank;
  int rankOf(int newRank) const { return newRank < rem ? 2 * newRank + 1 : newRank + rem; }
};
Fold foldOf(int r, int p);
// The fold's first step (even ranks below 2 rem send to the odd rank above, which combines,
// a few pieces at a time so its scratch stays small: Reduction::pieceElements) and last
// (the odd rank sends the result back); both use `step`.
void foldIn(Schedule& schedule, const Reduction& reduction, char* acc, int step);
void foldOut(Schedule& schedule, const Reduction& reduction, char* acc, int step);

}  // namespace zmpi::mpi::coll
