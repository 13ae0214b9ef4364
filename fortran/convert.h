#pragma once
// What every Fortran binding converts (fortran/README.md): handles named by MPI_Fint
// indices, the sentinels of mpif.h and the modules, statuses, LOGICAL and CHARACTER
// arguments, and the ierror argument. The bindings are C++ over zmpi's C API (PMPI_*),
// called with gfortran's convention: every argument by reference, the hidden length of each
// CHARACTER argument (a size_t) after all the others.
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fortran/aliases.h"  // generated: ZMPI_FORTRAN_ALIASES_ompi_x_f

#define ZMPI_FORTRAN_EXPORT __attribute__((visibility("default")))
// Beside a hand-written ompi_x_f: its aliases (mpi_x_, MPI_X, pmpi_x, ...), from the export list.
#define ZMPI_FORTRAN_ALIASES(impl) ZMPI_FORTRAN_ALIASES_##impl

// The sentinels (sentinels.cc): Open MPI's mpif.h and modules name them as common blocks,
// so a program holds its own copy and exports it; through these symbols (default
// visibility, no -Bsymbolic) the library compares against the program's copy.
extern "C" {
extern MPI_Fint mpi_fortran_bottom_;
extern MPI_Fint mpi_fortran_in_place_;
extern MPI_Fint mpi_fortran_status_ignore_[];
extern MPI_Fint mpi_fortran_statuses_ignore_[];
extern MPI_Fint mpi_fortran_errcodes_ignore_;
extern MPI_Fint mpi_fortran_unweighted_;
extern MPI_Fint mpi_fortran_weights_empty_;
extern char mpi_fortran_argv_null_;
extern char mpi_fortran_argvs_null_;
}

namespace zmpi::fortran {

static_assert(sizeof(MPI_Fint) == sizeof(int), "INTEGER arrays are passed to C as they are");
// A Fortran status is MPI_STATUS_SIZE (6) INTEGERs holding the C struct, as in Open MPI.
inline constexpr int kStatusInts = sizeof(MPI_Status) / sizeof(MPI_Fint);
static_assert(kStatusInts == 6);

inline void* buffer(void* address) {
  if (address == &mpi_fortran_bottom_) return MPI_BOTTOM;
  if (address == &mpi_fortran_in_place_) return MPI_IN_PLACE;
  return address;
}

// The weights of the dist-graph calls: an INTEGER array, or MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY.
inline int* weights(MPI_Fint* fortran) {
  if (fortran == &mpi_fortran_unweighted_) return MPI_UNWEIGHTED;
  if (fortran == &mpi_fortran_weights_empty_) return MPI_WEIGHTS_EMPTY;
  return fortran;
}

inline bool statusIgnored(const MPI_Fint* status) {
  return status == mpi_fortran_status_ignore_ || status == mpi_fortran_statuses_ignore_;
}

// Handle indices -> C handles. The predefined handles a program names most (communicators,
// datatypes, ops) come from tables in this library (convert.cc, from the same list as the
// C library's: mpi/abi/fortran_handles.h), the others from MPI_*_f2c, which gives the kind's
// NULL handle for an index naming none -- the C call then fails with the kind's error class.
inline constexpr size_t kPredefinedComms = 3;
inline constexpr size_t kPredefinedDatatypes = 73;
inline constexpr size_t kPredefinedOps = 15;
extern const std::array<MPI_Comm, kPredefinedComms> kComms;
extern const std::array<MPI_Datatype, kPredefinedDatatypes> kDatatypes;
extern const std::array<MPI_Op, kPredefinedOps> kOps;

// Whether an index names a predefined handle of this library's tables (the bindings' fast path).
inline bool predefinedComm(MPI_Fint index) { return static_cast<unsigned>(index) < kPredefinedComms; }
inline bool predefinedType(MPI_Fint index) {
  const auto i = static_cast<size_t>(static_cast<unsigned>(index));
  return i < kPredefinedDatatypes && kDatatypes[i] != nullptr;
}
inline bool predefinedOp(MPI_Fint index) { return static_cast<unsigned>(index) < kPredefinedOps; }

inline MPI_Comm comm(MPI_Fint index) {
  const auto i = static_cast<size_t>(static_cast<unsigned>(index));
  return i < kPredefinedComms ? kComms[i] : PMPI_Comm_f2c(index);
}
inline MPI_Datatype type(MPI_Fint index) {
  const auto i = static_cast<size_t>(static_cast<unsigned>(index));
  // cppcheck-suppress CastIntegerToAddressAtReturn ; a false finding: MPI_Datatype is a pointer type
  if (i < kPredefinedDatatypes && kDatatypes[i] != nullptr) return kDatatypes[i];
  return PMPI_Type_f2c(index);
}
inline MPI_Op op(MPI_Fint index) {
  const auto i = static_cast<size_t>(static_cast<unsigned>(index));
  return i < kPredefinedOps ? kOps[i] : PMPI_Op_f2c(index);
}
inline MPI_Group group(MPI_Fint index) { return PMPI_Group_f2c(index); }
inline MPI_Info info(MPI_Fint index) { return PMPI_Info_f2c(index); }
inline MPI_Errhandler errh(MPI_Fint index) { return PMPI_Errhandler_f2c(index); }
inline MPI_Win win(MPI_Fint index) { return PMPI_Win_f2c(index); }
inline MPI_File file(MPI_Fint index) { return PMPI_File_f2c(index); }
inline MPI_Request req(MPI_Fint index) { return index == 0 ? MPI_REQUEST_NULL : PMPI_Request_f2c(index); }
inline MPI_Message msg(MPI_Fint index) { return PMPI_Message_f2c(index); }

inline MPI_Fint toFortran(MPI_Comm h) { return PMPI_Comm_c2f(h); }
inline MPI_Fint toFortran(MPI_Datatype h) { return PMPI_Type_c2f(h); }
inline MPI_Fint toFortran(MPI_Op h) { return PMPI_Op_c2f(h); }
inline MPI_Fint toFortran(MPI_Group h) { return PMPI_Group_c2f(h); }
inline MPI_Fint toFortran(MPI_Info h) { return PMPI_Info_c2f(h); }
inline MPI_Fint toFortran(MPI_Errhandler h) { return PMPI_Errhandler_c2f(h); }
inline MPI_Fint toFortran(MPI_Win h) { return PMPI_Win_c2f(h); }
inline MPI_Fint toFortran(MPI_File h) { return PMPI_File_c2f(h); }
inline MPI_Fint toFortran(MPI_Request h) { return h == MPI_REQUEST_NULL ? 0 : PMPI_Request_c2f(h); }
inline MPI_Fint toFortran(MPI_Message h) { return PMPI_Message_c2f(h); }

// Whether an index names no handle of its kind: f2c gave the NULL handle for another index.
inline bool namesNothing(MPI_Comm h, MPI_Fint index) { return h == MPI_COMM_NULL && index != 2; }
inline bool namesNothing(MPI_Datatype h, MPI_Fint index) { return h == MPI_DATATYPE_NULL && index != 0; }
inline bool namesNothing(MPI_Op h, MPI_Fint index) { return h == MPI_OP_NULL && index != 0; }
inline bool namesNothing(MPI_Group h, MPI_Fint index) { return h == MPI_GROUP_NULL && index != 0; }
inline bool namesNothing(MPI_Info h, MPI_Fint index) { return h == MPI_INFO_NULL && index != 0; }
inline bool namesNothing(MPI_Request h, MPI_Fint index) { return h == MPI_REQUEST_NULL && index != 0; }

// gfortran's LOGICAL: .TRUE. is 1, .FALSE. 0 (C's flags may be any non-zero int).
inline MPI_Fint logical(int value) { return value != 0 ? 1 : 0; }

inline void setError(MPI_Fint* ierr, int rc) {
  if (ierr != nullptr) *ierr = rc;
}

// A status argument: the C call writes the program's INTEGER array itself when it is
// aligned like the C struct (as Open MPI's bindings do: the layouts are the same), else the
// caller's aligned copy (a Fortran INTEGER array need only be 4-byte aligned), or it gets
// MPI_STATUS_IGNORE. storeStatus copies the copy back. Free functions, so that the pointer
// stays in a register on the hot path (MPI_Recv).
inline MPI_Status* statusFor(MPI_Fint* fortran, MPI_Status* copy, bool copyIn) {
  if (statusIgnored(fortran)) return MPI_STATUS_IGNORE;
  if (reinterpret_cast<uintptr_t>(fortran) % alignof(MPI_Status) == 0) return reinterpret_cast<MPI_Status*>(fortran);
  if (copyIn) std::memcpy(copy, fortran, sizeof *copy);
  return copy;
}
inline void storeStatus(MPI_Fint* fortran, const MPI_Status* used, const MPI_Status* copy) {
  if (used == copy) std::memcpy(fortran, copy, sizeof *copy);
}

// A CHARACTER argument in: Fortran pads with blanks and has no terminator, so the value is
// the text without its trailing (and, as Open MPI does, leading) blanks.
class InString {
 public:
  InString(const char* text, size_t length);
  bool ok() const { return ok_; }
  const char* c() const { return value_.c_str(); }
  const std::string& str() const { return value_; }

 private:
  std::string value_;
  bool ok_ = true;
};

// A CHARACTER argument out: the C string, then blanks to the Fortran length.
void storeString(const char* value, char* fortran, size_t length);

// Lengths above this are a negative or garbage hidden length, not a string.
inline constexpr size_t kMaxStringLength = size_t{1} << 30;

// A bad argument the C API never sees (a string length, an array length): through the
// error handler of comm (MPI_COMM_WORLD's when null) -- under MPI_ERRORS_ARE_FATAL a
// message naming the call and the job's abort -- and the error class into ierror.
void raise(MPI_Fint* ierr, MPI_Comm comm, int errorClass, const char* call, const std::string& what);
void badLength(MPI_Fint* ierr, const char* call, const char* argument, size_t length);
// A handle argument whose index names no handle (namesNothing), through comm's handler.
void badIndex(MPI_Fint* ierr, MPI_Comm comm, int errorClass, const char* call, const char* argument, MPI_Fint index);

// A call zmpi's C library cannot make (persistent collectives, dynamic processes, ...):
// MPI_ERR_UNSUPPORTED_OPERATION through MPI_COMM_WORLD's error handler, naming the call.
void unsupportedCall(MPI_Fint* ierr, const char* call);

// An entry point zmpi does not implement: aborts the job with a message naming it (its
// arguments are unknown here, so there is no ierror to set).
[[noreturn]] void unsupported(const char* call);

}  // namespace zmpi::fortran
