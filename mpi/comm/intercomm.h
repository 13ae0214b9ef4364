#pragma once
// Intercommunicator constructors (MPI-3.1 6.6.2): MPI_Intercomm_create and _merge, and
// what MPI_Comm_dup, _split and _create do when their parent is an intercommunicator.
//
// Context ids. An intercommunicator needs two: its own (the point-to-point traffic
// between the groups) and its bridge's (the hidden intracommunicator over both groups
// that its collectives and later constructors run over, communicator.h). Both are agreed
// by every process of both groups: the largest context-id floor among them, and the next
// id; each process then raises its floor past both. MPI_Intercomm_create learns the other
// group's floor from the local leaders' exchange; later constructors allgather over the
// bridge.
#include <functional>
#include <memory>
#include <vector>

#include "mpi/comm/communicator.h"

namespace zmpi::mpi {

// The local leader's exchange with the remote leader (through the peer communicator, which
// is the C API's business): sends `mine`, returns what the remote leader sent.
using LeaderExchange = std::function<std::vector<int>(const std::vector<int>& mine)>;

// Collective over `local` (an intracommunicator). The remote group must be disjoint from
// the local one (MPI_ERR_COMM otherwise). An error at the leader (a bad peer communicator
// or remote leader) reaches every local process, so nobody waits for a leader that gave up.
std::unique_ptr<Communicator> createIntercomm(Communicator& local, int localLeader, const LeaderExchange& exchange);

// MPI_Intercomm_merge: the group whose processes pass high = false comes first; if both
// pass the same value, the group first in the bridge does. `high` must be the same within
// a group (the value of the group's rank 0 counts).
std::unique_ptr<Communicator> mergeIntercomm(Communicator& inter, bool high);

// MPI_Comm_dup: the same groups, fresh contexts.
std::unique_ptr<Communicator> dupIntercomm(Communicator& inter);

// MPI_Comm_split: in each group, processes of one color, ordered by key then rank, form
// the local group of an intercommunicator whose remote group is the other group's
// processes of that color. Null for MPI_UNDEFINED, or where the other group has none.
std::unique_ptr<Communicator> splitIntercomm(Communicator& inter, int color, int key);

// MPI_Comm_create: each group passes a subgroup of itself; the members get an
// intercommunicator between the two subgroups (null if either is empty).
std::unique_ptr<Communicator> createFromIntercomm(Communicator& inter, Group& group);

// MPI_Comm_compare of two intercommunicators: CONGRUENT when both groups are identical,
// SIMILAR when both have the same members, else UNEQUAL (IDENT is the caller's).
int compareIntercomms(Communicator& first, Communicator& second);

}  // namespace zmpi::mpi
