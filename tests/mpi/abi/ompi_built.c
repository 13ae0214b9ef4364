/* Built by Open MPI's own mpicc (so linked against Open MPI's libmpi.so.40, with COPY
 * relocations for the predefined objects it names) and run unmodified against zmpi's
 * library through LD_LIBRARY_PATH. Uses the predefined handles the way ordinary programs
 * do: MPI_COMM_WORLD, MPI_INT, MPI_DOUBLE, MPI_SUM, MPI_MAX, MPI_STATUS_IGNORE, ...
 * Prints the library version (the test checks it is zmpi) and "ompi_built: ok". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define EXPECT(cond)                                                         \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "ompi_built: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      MPI_Abort(MPI_COMM_WORLD, 3);                                          \
    }                                                                        \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length;
    MPI_Get_library_version(version, &length);
    printf("library: %s\n", version);
  }

  /* The library and this executable agree on where the predefined objects live. */
  MPI_Errhandler handler;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler);
  EXPECT(handler == MPI_ERRORS_ARE_FATAL);
  EXPECT(MPI_Comm_c2f(MPI_COMM_WORLD) == 0);
  EXPECT(MPI_Type_c2f(MPI_INT) == 39);
  EXPECT(MPI_Op_c2f(MPI_SUM) == 3);
  int typeSize = 0;
  MPI_Type_size(MPI_DOUBLE, &typeSize);
  EXPECT(typeSize == sizeof(double));

  /* Point-to-point around a ring with MPI_INT, and the MPI_Status layout. */
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  int token = rank * 10, got = -1;
  MPI_Status status;
  MPI_Sendrecv(&token, 1, MPI_INT, next, 7, &got, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &status);
  EXPECT(got == prev * 10);
  EXPECT(status.MPI_SOURCE == prev && status.MPI_TAG == 7);
  int count = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  EXPECT(count == 1);
  MPI_Request request;
  MPI_Isend(&token, 1, MPI_INT, next, 8, MPI_COMM_WORLD, &request);
  MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  EXPECT(request == MPI_REQUEST_NULL);

  /* Reductions with the predefined ops. */
  int sum = 0, max = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT(sum == size * (size - 1) / 2);
  MPI_Allreduce(&rank, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT(max == size - 1);
  double local = 0.5 * rank, total = 0;
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) EXPECT(total == 0.25 * size * (size - 1));

  int* tagUb = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tagUb, &flag);
  EXPECT(flag && *tagUb >= 32767);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank == 0) printf("ompi_built: ok\n");
  return 0;
}
