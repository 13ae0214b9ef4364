#pragma once
// The derived-datatype constructors (MPI 3.1 chapter 4), one function per MPI_Type_* call.
// Each validates its arguments (MpiError naming the argument: MPI_ERR_COUNT for a negative
// count, MPI_ERR_ARG for bad blocklengths/arrays, MPI_ERR_TYPE for unusable types),
// flattens the type map at once (TypeMapBuilder) and records the envelope and contents.
// The result is a new, uncommitted type with one reference, owned by the caller
// (release() frees it); it keeps the types it was built from alive (holdType).
#include <mpi.h>

#include "mpi/datatype/datatype.h"

namespace zmpi::mpi::types {

Datatype* contiguous(int count, Datatype& oldType);
Datatype* vector(int count, int blocklength, int stride, Datatype& oldType);
Datatype* hvector(int count, int blocklength, MPI_Aint stride, Datatype& oldType);
Datatype* indexed(int count, const int blocklengths[], const int displacements[], Datatype& oldType);
Datatype* hindexed(int count, const int blocklengths[], const MPI_Aint displacements[], Datatype& oldType);
Datatype* indexedBlock(int count, int blocklength, const int displacements[], Datatype& oldType);
Datatype* hindexedBlock(int count, int blocklength, const MPI_Aint displacements[], Datatype& oldType);
// `types[i]` may be MPI_LB / MPI_UB (deprecated markers) as well as any type.
Datatype* structType(int count, const int blocklengths[], const MPI_Aint displacements[], Datatype* const types[]);
Datatype* resized(Datatype& oldType, MPI_Aint lb, MPI_Aint extent);
// Same type map and bounds; committed if the original is.
Datatype* dup(Datatype& oldType);
// `order` is MPI_ORDER_C (last index fastest) or MPI_ORDER_FORTRAN (first index fastest).
Datatype* subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                   Datatype& oldType);
// Process `rank` of `size`'s block of a block/cyclic-distributed global array.
Datatype* darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                 const int psizes[], int order, Datatype& oldType);

}  // namespace zmpi::mpi::types
