/* A token goes around the ring twice; every rank checks what it receives.
 * zmpi-test-ranks: 1 2 4 8 */
#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int lap = 0; lap < 2; ++lap) {
    int token;
    if (rank == 0) {
      token = lap * 1000;
      MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK_EQ_INT(token, lap * 1000 + size - 1);
    } else {
      MPI_Status status;
      MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, &status);
      CHECK_EQ_INT(status.MPI_SOURCE, prev);
      CHECK_EQ_INT(status.MPI_TAG, lap);
      CHECK_EQ_INT(token, lap * 1000 + rank - 1);
      token++;
      MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return 0;
}
