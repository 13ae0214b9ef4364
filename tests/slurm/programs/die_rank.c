/* A rank that dies: rank 1 kills itself with SIGKILL after the first barrier while the
 * others wait for a message from it that never comes. Under a manager the step must end
 * (srun --kill-on-bad-exit, or zmpi's own fault handling), leaving nothing running. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    fprintf(stderr, "die_rank: rank 1 (pid %d) kills itself\n", (int)getpid());
    raise(SIGKILL);
  }
  MPI_Recv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
