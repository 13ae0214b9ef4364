#pragma once
// Attribute caching (MPI-3.1 section 6.7): keyvals and the values programs attach to
// communicators, datatypes and windows under them.
//
// A keyval belongs to one kind of object and carries the program's copy and delete
// callbacks. Communicators keep their values in `Communicator::attributes`; datatypes and
// windows in a side table keyed by their handle. Callbacks run with no lock held, because
// they may call back into MPI (a copy callback often reads other attributes).
//
// Contracts for the code that creates and frees objects:
//  - MPI_Comm_dup (and MPI_Comm_idup, MPI_Comm_dup_with_info) calls
//    copyAttributesOnDup(old, new) before returning the new communicator. If it throws,
//    call deleteAllAttributes(new) before destroying the half-built communicator.
//  - MPI_Comm_free / MPI_Comm_disconnect call deleteAllAttributes(comm) while the handle
//    is still valid (delete callbacks receive it), before destroying the communicator.
//    MPI_Finalize does the same for MPI_COMM_SELF first, then MPI_COMM_WORLD.
//  - MPI_Type_dup calls copyTypeAttributesOnDup, MPI_Type_free deleteAllTypeAttributes.
// Communicators created otherwise (split, create, ...) start with no attributes.
#include <mpi.h>

#include <map>

namespace zmpi::mpi {

class Communicator;

enum class AttributeKind { Comm, Type, Win };

// keyval -> value, as the program passed it to MPI_Comm_set_attr.
using AttributeStore = std::map<int, void*>;

// The first keyval handed to programs; below it are Open MPI's predefined keyvals (mpi.h).
inline constexpr int kFirstUserKeyval = 16;

// A new keyval for `kind` objects. `copy` and `del` are the program's
// MPI_{Comm,Type,Win}_{copy,delete}_attr_function pointers, type-erased; null means "do
// not copy" / "nothing to do on delete".
int createKeyval(AttributeKind kind, void (*copy)(), void (*del)(), void* extraState);
// MPI_*_free_keyval: the keyval stops being usable at once, but callbacks still run for
// values attached under it until they are deleted. Throws MPI_ERR_KEYVAL for an invalid,
// predefined or wrong-kind keyval.
void freeKeyval(AttributeKind kind, int keyval);
// True for a live keyval of `kind` (user or predefined).
bool isKeyval(AttributeKind kind, int keyval);

// --- communicators ---
// MPI_COMM_WORLD of each world carries the predefined attributes (MPI_TAG_UB, MPI_HOST,
// MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_APPNUM, MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE), each a
// pointer to an int. As in Open MPI, dups inherit all but MPI_LASTUSEDCODE.
// Set/delete throw MPI_ERR_KEYVAL for invalid keyvals and for the predefined ones; a
// failing delete callback's code is thrown as is.
void setCommAttribute(Communicator& comm, int keyval, void* value);
bool getCommAttribute(Communicator& comm, int keyval, void** value);
void deleteCommAttribute(Communicator& comm, int keyval);
void copyAttributesOnDup(Communicator& from, Communicator& to);
void deleteAllAttributes(Communicator& comm);

// --- datatypes and windows (values keyed by handle) ---
void setTypeAttribute(MPI_Datatype type, int keyval, void* value);
bool getTypeAttribute(MPI_Datatype type, int keyval, void** value);
void deleteTypeAttribute(MPI_Datatype type, int keyval);
void copyTypeAttributesOnDup(MPI_Datatype from, MPI_Datatype to);
void deleteAllTypeAttributes(MPI_Datatype type);

// For the RMA code: window attributes, including the predefined MPI_WIN_BASE, ...
// (`internal` lets the library itself set those).
void setWinAttribute(MPI_Win win, int keyval, void* value, bool internal = false);
bool getWinAttribute(MPI_Win win, int keyval, void** value);
void deleteWinAttribute(MPI_Win win, int keyval);
void deleteAllWinAttributes(MPI_Win win);

// A process-lifetime int holding `value`: predefined attributes point at these.
const int* internedInt(int value);

}  // namespace zmpi::mpi
