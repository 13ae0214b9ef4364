#pragma once
// The Fortran names of handles: per handle kind, a table from small integers (MPI_Fint) to
// C handles, behind MPI_*_c2f / MPI_*_f2c (capi/handle_conversion.cc) and so behind every
// Fortran binding (fortran/). The hot direction, index -> handle, is two loads without a
// lock (a Fortran MPI_Send converts its communicator and datatype on every call); handle ->
// index reads the index kept in the handle's own header. An index is given out the first
// time a handle is converted and taken back when the handle's object is destroyed
// (retireHandle), so a program that creates and frees handles in a loop reuses indices
// instead of growing the table.
#include <cstdint>

#include "mpi/core/handle.h"

namespace zmpi::mpi {

// The handle at index, or nullptr (never given out, given back, out of range).
void* fortranHandleAt(HandleKind kind, int32_t index);

// The index of a handle, the next free one of its kind on its first conversion. -1 when
// the table is full (4 Mi live handles of one kind).
int32_t fortranIndexOf(HandleHeader& header);

// Puts a predefined handle at its fixed index (Open MPI's mpif.h values). Idempotent. The
// kind is explicit: before MPI_Init binds them, predefined headers are still blank.
void reserveFortranIndex(HandleKind kind, HandleHeader& header, int32_t index);

// How many indices of a kind are in use (tests: freed handles give theirs back).
int32_t fortranIndicesInUse(HandleKind kind);

}  // namespace zmpi::mpi
