/* For the fault tests: every rank joins, says "ready", then waits in MPI_Recv for a message
 * that never comes, as a rank in the middle of a real exchange would. The job can only end
 * by being ended: an agent killed, a host cut off. */
#include <stdio.h>

#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, value;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("ready %d\n", rank);
  fflush(stdout);
  MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
