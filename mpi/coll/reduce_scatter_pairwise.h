#pragma once
#include <cstddef>
#include <vector>

#include "mpi/coll/reduction.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// Pairwise-exchange reduce-scatter (Thakur, Rabenseifner & Gropp, "Optimization of
// Collective Communication Operations in MPICH", IJHPCA 2005, long messages): p - 1 rounds; in round k rank r sends its
// contribution to block r + k to that rank and receives rank r - k's contribution to its own block, folding it in. Each
// rank sends (p-1)/p of its operand; any p. Contributions arrive in rotated rank order,
// so this needs a commutative op. `whole` describes the full operand (sum of `counts`
// elements); rank i's block is counts[i] elements, after those of ranks below it.
// `input` is the full operand, `result` this rank's block (span pointers).
void reduceScatterPairwise(Schedule& schedule, const Reduction& whole, const char* input, char* result,
                           const std::vector<std::size_t>& counts);

}  // namespace zmpi::mpi::coll
