// Communicator management: duplication, splitting, creation from groups, freeing,
// comparison, names. The constructors themselves live in comm/constructors.h; this file
// checks arguments, hands out handles and runs the attribute callbacks (core/keyval.h).
#include <cstring>
#include <memory>

#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"
#include "mpi/comm/constructors.h"
#include "mpi/core/info.h"
#include "mpi/core/keyval.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

// Hands a new communicator (or none) out through `out`.
void publish(std::unique_ptr<Communicator> comm, MPI_Comm* out) {
  *out = comm ? comm.release()->publish() : MPI_COMM_NULL;
}

// MPI_Comm_dup's work: a new context, the same group and topology, and the attributes
// the keyvals' copy callbacks choose to carry over.
MPI_Comm duplicate(Communicator& parent) {
  std::unique_ptr<Communicator> comm = dupCommunicator(parent);
  try {
    copyAttributesOnDup(parent, *comm);
  } catch (...) {
    deleteAllAttributes(*comm);
    throw;
  }
  return comm.release()->publish();
}

// Communicator hints are optional (MPI_INFO_NULL is fine) and zmpi acts on none of them.
void infoArg(MPI_Info info) { infoOrNull(info); }

// MPI_Comm_free's work: delete callbacks first, while the handle is still valid.
void release(MPI_Comm* comm) {
  pointerArg(comm, "comm");
  Communicator& c = commArg(*comm);
  if (c.predefined()) fail(MPI_ERR_COMM, "cannot free the predefined communicator " + c.name);
  deleteAllAttributes(c);
  c.release();  // deleted now, or when the last request on it is gone
  *comm = MPI_COMM_NULL;
}

}  // namespace

extern "C" {

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return guardedComm("MPI_Comm_dup", comm, [&] {
    Communicator& parent = commArg(comm);
    pointerArg(newcomm, "newcomm");
    *newcomm = duplicate(parent);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_dup)

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  return guardedComm("MPI_Comm_dup_with_info", comm, [&] {
    Communicator& parent = commArg(comm);
    infoArg(info);
    pointerArg(newcomm, "newcomm");
    // zmpi acts on no communicator hint, so the info only has to be valid.
    *newcomm = duplicate(parent);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_dup_with_info)

// Completes before returning: the context-id agreement is a short blocking allgather.
// A program that makes the idup wait on its own later point-to-point traffic (allowed
// by the standard) would deadlock here; none of the usual ones does.
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  return guardedComm("MPI_Comm_idup", comm, [&] {
    Communicator& parent = commArg(comm);
    pointerArg(newcomm, "newcomm");
    pointerArg(request, "request");
    *newcomm = duplicate(parent);
    auto* done = new Request(Request::Kind::Completed);
    done->holdComm(&parent);
    setEmptyStatus(&done->status);
    done->done.store(true);
    *request = done->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_idup)

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return guardedComm("MPI_Comm_split", comm, [&] {
    Communicator& parent = commArg(comm);
    pointerArg(newcomm, "newcomm");
    publish(splitCommunicator(parent, color, key), newcomm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_split)

int PMPI_Comm_split_type(MPI_Comm comm, int splitType, int key, MPI_Info info, MPI_Comm* newcomm) {
  return guardedComm("MPI_Comm_split_type", comm, [&] {
    Communicator& parent = intraCommArg(comm);
    infoArg(info);
    pointerArg(newcomm, "newcomm");
    publish(splitCommunicatorByType(parent, splitType, key), newcomm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_split_type)

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return guardedComm("MPI_Comm_create", comm, [&] {
    Communicator& parent = commArg(comm);
    Group& g = groupOf(group, "group");
    pointerArg(newcomm, "newcomm");
    publish(createCommunicator(parent, g), newcomm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_create)

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  return guardedComm("MPI_Comm_create_group", comm, [&] {
    Communicator& parent = intraCommArg(comm);
    Group& g = groupOf(group, "group");
    sendTagArg(tag);
    pointerArg(newcomm, "newcomm");
    publish(createCommunicatorFromGroup(parent, g, tag), newcomm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_create_group)

// Frees at once: operations still pending on the communicator must have completed (a
// program that frees a communicator under its own Isend is not supported yet).
int PMPI_Comm_free(MPI_Comm* comm) {
  return guarded("MPI_Comm_free", [&] {
    release(comm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_free)

// On an intracommunicator, disconnect is free once pending traffic is done, which the
// program's own waits already guarantee before it may call either.
int PMPI_Comm_disconnect(MPI_Comm* comm) {
  return guarded("MPI_Comm_disconnect", [&] {
    release(comm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_disconnect)

// zmpi starts no processes with MPI_Comm_spawn, so no process has a parent.
int PMPI_Comm_get_parent(MPI_Comm* parent) {
  return guarded("MPI_Comm_get_parent", [&] {
    requireWorld();
    pointerArg(parent, "parent");
    *parent = MPI_COMM_NULL;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_get_parent)

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  return guardedComm("MPI_Comm_set_info", comm, [&] {
    commArg(comm);
    infoOf(info);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_set_info)

// The hints in use: none (a new, empty info the program frees).
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info* info) {
  return guardedComm("MPI_Comm_get_info", comm, [&] {
    commArg(comm);
    pointerArg(info, "info_used");
    *info = (new Info())->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_get_info)

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  return guardedComm("MPI_Comm_compare", comm1, [&] {
    requireWorld();
    if (comm1 == MPI_COMM_NULL) fail(MPI_ERR_COMM, "comm1 is MPI_COMM_NULL");
    if (comm2 == MPI_COMM_NULL) fail(MPI_ERR_COMM, "comm2 is MPI_COMM_NULL");
    pointerArg(result, "result");
    *result = compareCommunicators(*communicatorOf(comm1), *communicatorOf(comm2));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_compare)

int PMPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  return guardedComm("MPI_Comm_test_inter", comm, [&] {
    Communicator& c = commArg(comm);
    pointerArg(flag, "flag");
    *flag = c.isInter() ? 1 : 0;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_test_inter)

int PMPI_Comm_remote_size(MPI_Comm comm, int* size) {
  return guardedComm("MPI_Comm_remote_size", comm, [&] {
    Communicator& c = interCommArg(comm);
    pointerArg(size, "size");
    *size = c.remoteGroup().size();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_remote_size)

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  return guardedComm("MPI_Comm_remote_group", comm, [&] {
    Communicator& c = interCommArg(comm);
    pointerArg(group, "group");
    c.remoteGroup().retain();  // released by MPI_Group_free
    *group = c.remoteGroup().handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_remote_group)

int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  return guardedComm("MPI_Comm_group", comm, [&] {
    Communicator& c = commArg(comm);
    pointerArg(group, "group");
    c.group().retain();  // released by MPI_Group_free
    *group = c.group().handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_group)

int PMPI_Comm_set_name(MPI_Comm comm, const char* name) {
  return guardedComm("MPI_Comm_set_name", comm, [&] {
    Communicator& c = commArg(comm);
    pointerArg(name, "comm_name");
    c.name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_set_name)

int PMPI_Comm_get_name(MPI_Comm comm, char* name, int* resultlen) {
  return guardedComm("MPI_Comm_get_name", comm, [&] {
    Communicator& c = commArg(comm);
    pointerArg(name, "comm_name");
    pointerArg(resultlen, "resultlen");
    std::memcpy(name, c.name.c_str(), c.name.size() + 1);
    *resultlen = static_cast<int>(c.name.size());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Comm_get_name)

}  // extern "C"
