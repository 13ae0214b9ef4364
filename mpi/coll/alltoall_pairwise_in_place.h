#pragma once
#include <cstddef>
#include <vector>

#include "mpi/coll/layout.h"
#include "mpi/coll/schedule.h"

namespace zmpi::mpi::coll {

// In-place all-to-all (MPI_IN_PLACE) without a copy of the buffer: ranks pair off round by
// round and each pair swaps its two blocks where they lie (as MPICH's in-place
// MPIR_Alltoall_intra_pairwise_sendrecv_replace does, one pair at a time). The pairing is
// the round-robin tournament (a 1-factorisation of the complete graph; "circle method"):
// for odd p, round k (k < p) pairs r with (k - r) mod p and the rank paired with itself
// sits the round out; for even p, ranks below p - 1 pair mod p - 1 (k < p - 1) and the one
// paired with itself meets rank p - 1. A swap goes through a temporary of `chunk` bytes
// (0: one block), one chunk per round: copy our chunk out, receive the peer's into its
// place, send the copy. `data`/`pieces`: each rank's block, sent and received alike.
void alltoallPairwiseInPlace(Schedule& schedule, char* data, const std::vector<Piece>& pieces, std::size_t chunk);

// This rank's partner in round k of the tournament (itself: it sits the round out), and
// the number of rounds.
int tournamentPeer(int rank, int size, int round);
int tournamentRounds(int size);

}  // namespace zmpi::mpi::coll
