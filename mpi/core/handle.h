#pragma once
// How an MPI handle (a pointer to an Open MPI struct, per Open MPI's mpi.h) maps to a zmpi
// object. mpi.h only declares `struct ompi_communicator_t` etc. as incomplete types, so
// zmpi defines them: every handle points at a small HandleHeader naming its kind and the
// C++ object behind it. Predefined handles (MPI_COMM_WORLD == &ompi_mpi_comm_world, ...)
// point into storage that has exactly Open MPI's symbol size (mpi/abi/predefined.cc);
// their header is filled in by MPI_Init. A handle whose magic or kind is wrong is an
// invalid handle (MPI_ERR_COMM, MPI_ERR_TYPE, ...), never a crash on a null impl.
#include <cstdint>

namespace zmpi::mpi {

// clang-format off
enum class HandleKind : uint32_t {
  Comm = 1, Group, Datatype, Op, Request, Message, Errhandler, Info, Win, File,
};
// clang-format on

inline constexpr uint32_t kHandleMagic = 0x7a6d7069;  // "ipmz"

struct HandleHeader {
  uint32_t magic;
  HandleKind kind;
  void* impl;  // the zmpi object; null for the *_NULL handles
  // 1 + the handle's index in its kind's Fortran table (core/fortran_index.h), 0 while it
  // has none: MPI_*_c2f reads it without a lock, retireHandle gives the index back.
  int32_t fortranIndex = 0;
};

// Called by every handle owner's destructor: the handle becomes invalid (magic 0) and its
// Fortran index, if it was given one, is free again (core/fortran_index.cc).
void retireHandle(HandleHeader& header);

}  // namespace zmpi::mpi

// Complete types for mpi.h's opaque handle structs.
#define ZMPI_DEFINE_HANDLE_STRUCT(name) \
  struct name {                         \
    zmpi::mpi::HandleHeader header;     \
  }
ZMPI_DEFINE_HANDLE_STRUCT(ompi_communicator_t);
ZMPI_DEFINE_HANDLE_STRUCT(ompi_group_t);
ZMPI_DEFINE_HANDLE_STRUCT(ompi_datatype_t);
ZMPI_DEFINE_HANDLE_STRUCT(ompi_op_t);
ZMPI_DEFINE_HANDLE_STRUCT(ompi_request_t);
ZMPI_DEFINE_HANDLE_STRUCT(ompi_message_t);
ZMPI_DEFINE_HANDLE_STRUCT(ompi_errhandler_t);
ZMPI_DEFINE_HANDLE_STRUCT(ompi_info_t);
ZMPI_DEFINE_HANDLE_STRUCT(ompi_win_t);
ZMPI_DEFINE_HANDLE_STRUCT(ompi_file_t);
#undef ZMPI_DEFINE_HANDLE_STRUCT

namespace zmpi::mpi {

template <typename Handle>
inline bool isHandleOf(Handle handle, HandleKind kind) {
  return handle != nullptr && handle->header.magic == kHandleMagic && handle->header.kind == kind;
}

template <typename Impl, typename Handle>
inline Impl* implOf(Handle handle) {
  return static_cast<Impl*>(handle->header.impl);
}

template <typename Handle>
inline void bindHandle(Handle* handle, HandleKind kind, void* impl) {
  handle->header.magic = kHandleMagic;
  handle->header.kind = kind;
  handle->header.impl = impl;
}

}  // namespace zmpi::mpi
