#pragma once
// The small collective agreements communicator constructors need before the collectives
// library is involved: an allgather of a few ints among some ranks of a communicator, and
// the context-id choice built on it. They run over coll::Channel, in the communicator's
// collective context, so they never match user traffic.
#include <vector>

#include "mpi/coll/channel.h"
#include "mpi/comm/communicator.h"

namespace zmpi::mpi {

// Allgather of `mine` (the same length on every participant) among `members`: ranks of
// the channel's communicator, in the order results are returned. The caller must be one
// of them. Bruck's algorithm (Bruck et al., "Efficient algorithms for all-to-all
// communications in multiport message-passing systems", 1997): ceil(log2 n) rounds for
// any n, so communicator creation costs no more than a barrier.
std::vector<int> allgatherInts(coll::Channel& channel, const std::vector<int>& members, const std::vector<int>& mine);

// The same among all ranks of `comm`, on a fresh channel (one collective call).
std::vector<int> allgatherInts(Communicator& comm, const std::vector<int>& mine);

// `data` from `root` to every rank of `comm` (non-roots learn its length too), linear:
// for the rare, small words communicator constructors pass around (one collective call).
void bcastInts(Communicator& comm, int root, std::vector<int>& data);

// A context id agreed by every process whose floor is in `floors` and unused by any of
// them: the largest floor. Records it as used on this process (floor = agreed + 1), so
// no later communicator this process joins can reuse it.
int claimContextId(World& world, const std::vector<int>& floors);

// All ranks of `comm` agree on a fresh context id (one collective call).
int agreeContextId(Communicator& comm);

}  // namespace zmpi::mpi
