/* ring: a token travels around the ranks in a circle, 0 -> 1 -> ... -> size-1 -> 0.
 * Rank 0 starts it with a lap count and lowers the count each time the token comes
 * back; when it reaches zero every rank passes the zero on once more and stops.
 * Shows blocking MPI_Send / MPI_Recv and how a ring avoids deadlock: only rank 0
 * sends first, everyone else receives first.
 *
 *   zmpirun -np 4 build/bin/ring [laps]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kTag = 201 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  const int next = (rank + 1) % size;
  const int previous = (rank + size - 1) % size;
  int token = argc > 1 ? atoi(argv[1]) : 10; /* laps left */

  if (rank == 0) {
    printf("Rank 0 sends %d to rank %d (%d ranks in the ring)\n", token, next, size);
    MPI_Send(&token, 1, MPI_INT, next, kTag, MPI_COMM_WORLD);
  }

  /* Pass the token on until a zero goes by. Rank 0 counts the laps; a zero still has to
   * travel once around so that every rank sees it and leaves the loop. */
  for (;;) {
    MPI_Recv(&token, 1, MPI_INT, previous, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0) {
      --token;
      printf("Rank 0: token back, %d lap(s) left\n", token);
    }
    MPI_Send(&token, 1, MPI_INT, next, kTag, MPI_COMM_WORLD);
    if (token == 0) break;
  }

  /* The last zero sent by rank size-1 arrives at rank 0 after rank 0 stopped: take it. */
  if (rank == 0) MPI_Recv(&token, 1, MPI_INT, previous, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  printf("Rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
