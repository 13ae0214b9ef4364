#pragma once
// Communicator constructors (MPI_Comm_dup, _split, _split_type, _create, _create_group)
// and MPI_Comm_compare. Each constructor is collective as the standard says, agrees on a
// context id among the processes involved (agreement.h), and returns the new
// communicator, or null where the calling process gets MPI_COMM_NULL. New communicators
// inherit the parent's error handler; they have no name. Dup, split and create on an
// intercommunicator make intercommunicators (comm/intercomm.h).
#include <memory>

#include "mpi/comm/communicator.h"

namespace zmpi::mpi {

// Same group, fresh context; shares the parent's topology (it is immutable).
std::unique_ptr<Communicator> dupCommunicator(Communicator& parent);

// Ranks with the same color form a communicator, ordered by key then parent rank.
// color MPI_UNDEFINED: the caller takes part but gets null. Other negative colors:
// MPI_ERR_ARG.
std::unique_ptr<Communicator> splitCommunicator(Communicator& parent, int color, int key);

// MPI_Comm_split_type. MPI_COMM_TYPE_SHARED (and Open MPI's NODE/HOST/BOARD, and the
// levels below a host that zmpi cannot see: socket, NUMA, L3) group ranks by host name;
// the per-core levels give every rank its own communicator; CU/CLUSTER keep everyone.
std::unique_ptr<Communicator> splitCommunicatorByType(Communicator& parent, int splitType, int key);

// Collective over the parent: members of `group` (a subset of the parent's group) get a
// communicator over it. Processes may pass different, disjoint groups (MPI-2.2).
std::unique_ptr<Communicator> createCommunicator(Communicator& parent, Group& group);

// Collective over `group` only: its members agree among themselves, distinguished from
// other concurrent calls on the same parent by `tag`. A non-member gets null.
std::unique_ptr<Communicator> createCommunicatorFromGroup(Communicator& parent, Group& group, int tag);

// MPI_IDENT (the same communicator), MPI_CONGRUENT (same members and order), MPI_SIMILAR
// (same members), or MPI_UNEQUAL.
int compareCommunicators(Communicator& first, Communicator& second);

}  // namespace zmpi::mpi
