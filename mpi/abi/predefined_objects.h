#pragma once
// Storage for Open MPI's predefined handles (MPI_COMM_WORLD == &ompi_mpi_comm_world, ...).
// Each has exactly the size Open MPI 4.1 gives its symbol, because an executable built by
// Open MPI's mpicc holds R_X86_64_COPY relocations for the ones it names: at load time its
// own copy, of the size it was linked against, becomes the live object. zmpi therefore
// reaches them only through their exported symbols. Only the leading HandleHeader is used.
#include <cstddef>

#include "mpi/core/handle.h"

#define ZMPI_PREDEFINED_STRUCT(tag, handle_struct, bytes)                   \
  struct tag {                                                              \
    handle_struct object;                                                   \
    char padding[(bytes) - sizeof(handle_struct)];                          \
  };                                                                        \
  static_assert(sizeof(tag) == (bytes), #tag " must match Open MPI's size")

ZMPI_PREDEFINED_STRUCT(ompi_predefined_communicator_t, ompi_communicator_t, 512);
ZMPI_PREDEFINED_STRUCT(ompi_predefined_group_t, ompi_group_t, 256);
ZMPI_PREDEFINED_STRUCT(ompi_predefined_request_t, ompi_request_t, 256);
ZMPI_PREDEFINED_STRUCT(ompi_predefined_message_t, ompi_message_t, 256);
ZMPI_PREDEFINED_STRUCT(ompi_predefined_op_t, ompi_op_t, 2048);
ZMPI_PREDEFINED_STRUCT(ompi_predefined_datatype_t, ompi_datatype_t, 512);
ZMPI_PREDEFINED_STRUCT(ompi_predefined_errhandler_t, ompi_errhandler_t, 1024);
ZMPI_PREDEFINED_STRUCT(ompi_predefined_win_t, ompi_win_t, 512);
ZMPI_PREDEFINED_STRUCT(ompi_predefined_file_t, ompi_file_t, 1536);
ZMPI_PREDEFINED_STRUCT(ompi_predefined_info_t, ompi_info_t, 256);
#undef ZMPI_PREDEFINED_STRUCT

// Exported by Open MPI but not declared by its C mpi.h (removed MPI-1 types, C++ handler).
extern "C" struct ompi_predefined_errhandler_t ompi_mpi_errors_throw_exceptions;
extern "C" struct ompi_predefined_datatype_t ompi_mpi_lb;
extern "C" struct ompi_predefined_datatype_t ompi_mpi_ub;
