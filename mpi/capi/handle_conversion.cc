// C <-> Fortran handle conversion (MPI_*_c2f / MPI_*_f2c) and MPI_Status_c2f/f2c.
//
// Fortran names a handle by a small integer (core/fortran_index.h: lock-free lookups,
// indices given back when a handle's object is destroyed). The predefined handles sit at
// Open MPI's Fortran indices (abi/fortran_handles.h: MPI_COMM_WORLD = 0, MPI_INT = 39,
// MPI_SUM = 3, ...), put there before the first conversion of their kind; other handles get
// the next free index the first time they are converted. f2c of an index that names no
// handle gives the kind's NULL handle; c2f of an invalid handle gives -1 (as Open MPI does).
#include <atomic>
#include <mutex>

#include "mpi/abi/fortran_handles.h"
#include "mpi/abi/predefined_objects.h"
#include "mpi/capi/entry.h"
#include "mpi/core/fortran_index.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

template <typename Handle>
void reservePredefinedIndex(HandleKind kind, int32_t index, Handle handle) {
  reserveFortranIndex(kind, handle->header, index);
}

void reservePredefined(HandleKind kind) {
#define ZMPI_RESERVE(index, handle) reservePredefinedIndex(kind, index, handle);
#define ZMPI_RESERVE_SYMBOL(index, symbol) reservePredefinedIndex(kind, index, &(symbol).object);
  switch (kind) {
    case HandleKind::Comm:
      ZMPI_FORTRAN_COMMS(ZMPI_RESERVE) break;
    case HandleKind::Group:
      ZMPI_FORTRAN_GROUPS(ZMPI_RESERVE) break;
    case HandleKind::Datatype:
      ZMPI_FORTRAN_DATATYPES(ZMPI_RESERVE)
      ZMPI_FORTRAN_SYMBOL_DATATYPES(ZMPI_RESERVE_SYMBOL)
      break;
    case HandleKind::Op:
      ZMPI_FORTRAN_OPS(ZMPI_RESERVE) break;
    case HandleKind::Request:
      ZMPI_FORTRAN_REQUESTS(ZMPI_RESERVE) break;
    case HandleKind::Message:
      ZMPI_FORTRAN_MESSAGES(ZMPI_RESERVE) break;
    case HandleKind::Errhandler:
      ZMPI_FORTRAN_ERRHANDLERS(ZMPI_RESERVE) break;
    case HandleKind::Info:
      ZMPI_FORTRAN_INFOS(ZMPI_RESERVE) break;
    case HandleKind::Win:
      ZMPI_FORTRAN_WINS(ZMPI_RESERVE) break;
    case HandleKind::File:
      ZMPI_FORTRAN_FILES(ZMPI_RESERVE) break;
  }
#undef ZMPI_RESERVE
#undef ZMPI_RESERVE_SYMBOL
}

// Before the first conversion of a kind its predefined handles take their fixed indices
// (their headers may be bound later, by MPI_Init: the index lives beside the binding).
constexpr int kHandleKinds = static_cast<int>(HandleKind::File) + 1;
std::atomic<bool> predefinedReserved[kHandleKinds];  // the fast check on every conversion

void ensurePredefined(HandleKind kind) {
  const auto k = static_cast<size_t>(kind);
  if (predefinedReserved[k].load(std::memory_order_acquire)) return;
  static std::once_flag once[kHandleKinds];
  std::call_once(once[k], [kind, k] {
    reservePredefined(kind);
    predefinedReserved[k].store(true, std::memory_order_release);
  });
}

template <typename Handle>
MPI_Fint handleToFortran(Handle handle, HandleKind kind) {
  ensurePredefined(kind);
  if (!isHandleOf(handle, kind)) {
    // The NULL handles are bound with their kind by MPI_Init; before it only the index says.
    if (handle != nullptr && handle->header.fortranIndex != 0) return handle->header.fortranIndex - 1;
    return -1;
  }
  return fortranIndexOf(handle->header);
}

template <typename Handle>
Handle handleFromFortran(MPI_Fint index, HandleKind kind, Handle null) {
  ensurePredefined(kind);
  void* handle = fortranHandleAt(kind, index);
  return handle != nullptr ? static_cast<Handle>(handle) : null;
}

// A Fortran status is the C struct's ints, in order (Open MPI's MPI_STATUS_SIZE is 6).
constexpr int kStatusInts = sizeof(MPI_Status) / sizeof(int);
static_assert(sizeof(MPI_Status) % sizeof(int) == 0);

}  // namespace

#define ZMPI_HANDLE_CONVERSION(Name, Handle, kind, nullHandle)                                                        \
  MPI_Fint PMPI_##Name##_c2f(Handle handle) { return handleToFortran(handle, HandleKind::kind); }                     \
  ZMPI_ALIAS(MPI_##Name##_c2f)                                                                                        \
  Handle PMPI_##Name##_f2c(MPI_Fint index) { return handleFromFortran<Handle>(index, HandleKind::kind, nullHandle); } \
  ZMPI_ALIAS(MPI_##Name##_f2c)

extern "C" {

ZMPI_HANDLE_CONVERSION(Comm, MPI_Comm, Comm, MPI_COMM_NULL)
ZMPI_HANDLE_CONVERSION(Group, MPI_Group, Group, MPI_GROUP_NULL)
ZMPI_HANDLE_CONVERSION(Type, MPI_Datatype, Datatype, MPI_DATATYPE_NULL)
ZMPI_HANDLE_CONVERSION(Op, MPI_Op, Op, MPI_OP_NULL)
ZMPI_HANDLE_CONVERSION(Request, MPI_Request, Request, MPI_REQUEST_NULL)
ZMPI_HANDLE_CONVERSION(Message, MPI_Message, Message, MPI_MESSAGE_NULL)
ZMPI_HANDLE_CONVERSION(Errhandler, MPI_Errhandler, Errhandler, MPI_ERRHANDLER_NULL)
ZMPI_HANDLE_CONVERSION(Info, MPI_Info, Info, MPI_INFO_NULL)
ZMPI_HANDLE_CONVERSION(Win, MPI_Win, Win, MPI_WIN_NULL)
ZMPI_HANDLE_CONVERSION(File, MPI_File, File, MPI_FILE_NULL)

int PMPI_Status_c2f(const MPI_Status* cStatus, MPI_Fint* fStatus) {
  return guarded("MPI_Status_c2f", [&] {
    if (cStatus == MPI_STATUS_IGNORE || cStatus == MPI_STATUSES_IGNORE) {
      fail(MPI_ERR_IN_STATUS, "c_status is MPI_STATUS_IGNORE");
    }
    if (fStatus == nullptr || fStatus == MPI_F_STATUS_IGNORE) fail(MPI_ERR_IN_STATUS, "f_status is a null pointer");
    const int* ints = reinterpret_cast<const int*>(cStatus);
    for (int i = 0; i < kStatusInts; ++i) fStatus[i] = ints[i];
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Status_c2f)

int PMPI_Status_f2c(const MPI_Fint* fStatus, MPI_Status* cStatus) {
  return guarded("MPI_Status_f2c", [&] {
    if (fStatus == nullptr || fStatus == MPI_F_STATUS_IGNORE) fail(MPI_ERR_IN_STATUS, "f_status is a null pointer");
    if (cStatus == MPI_STATUS_IGNORE) fail(MPI_ERR_IN_STATUS, "c_status is MPI_STATUS_IGNORE");
    int* ints = reinterpret_cast<int*>(cStatus);
    for (int i = 0; i < kStatusInts; ++i) ints[i] = fStatus[i];
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Status_f2c)

}  // extern "C"
