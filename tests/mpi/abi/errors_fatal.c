/* Under the default handler (MPI_ERRORS_ARE_FATAL) an invalid argument ends the job
 * with a message naming the call and the argument. Every rank in "all" mode, only rank 0
 * in "one" mode (the others block in MPI_Recv, so the launcher must end them).
 *   errors_fatal all|one */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, value = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int everyone = argc > 1 && strcmp(argv[1], "all") == 0;
  if (everyone || rank == 0) {
    MPI_Send(&value, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
    fprintf(stderr, "errors_fatal: MPI_Send returned on rank %d\n", rank);
  } else {
    MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
