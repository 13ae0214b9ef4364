/* MPI_Abort under a manager: rank 2 aborts with code 7 while the others wait in a
 * barrier; the manager must end the whole step at once. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 2) MPI_Abort(MPI_COMM_WORLD, 7);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
