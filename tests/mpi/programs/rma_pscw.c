/* Post/start/complete/wait: each rank exposes its window to its two neighbours and
 * accesses theirs, several rounds in a row; then rank 0 is the only target of everyone,
 * polling MPI_Win_test until the epoch ends.
 * zmpi-test-ranks: 1 2 4 */
#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  /* [0] written by the left neighbour, [1] by the right one, [2] only read */
  int slots[3] = {-1, -1, 7 * rank};
  MPI_Win win;
  MPI_Win_create(slots, sizeof slots, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, neighbours;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int members[2] = {left, right};
  MPI_Group_incl(world, left == right ? 1 : 2, members, &neighbours);

  for (int round = 0; round < 5; ++round) {
    MPI_Win_post(neighbours, 0, win);
    MPI_Win_start(neighbours, 0, win);
    int value = 1000 * round + rank;
    MPI_Put(&value, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Put(&value, 1, MPI_INT, left, 1, 1, MPI_INT, win);
    int seen = -1;
    MPI_Get(&seen, 1, MPI_INT, right, 2, 1, MPI_INT, win);
    MPI_Win_complete(win);
    CHECK_EQ_INT(seen, 7 * right); /* gets have landed when MPI_Win_complete returns */
    MPI_Win_wait(win);
    CHECK_EQ_INT(slots[0], 1000 * round + left);
    CHECK_EQ_INT(slots[1], 1000 * round + right);
  }

  /* Everyone targets rank 0; rank 0 exposes to all and polls. */
  int counter = 0;
  MPI_Win win2;
  MPI_Win_create(&counter, sizeof counter, sizeof counter, MPI_INFO_NULL, MPI_COMM_WORLD, &win2);
  MPI_Group zero;
  int zeroRank = 0;
  MPI_Group_incl(world, 1, &zeroRank, &zero);
  if (rank == 0) {
    MPI_Win_post(world, 0, win2);
  }
  MPI_Win_start(zero, 0, win2);
  int one = 1;
  MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win2);
  MPI_Win_complete(win2);
  if (rank == 0) {
    int done = 0;
    while (!done) MPI_Win_test(win2, &done);
    CHECK_EQ_INT(counter, size);
  }
  MPI_Group_free(&zero);
  MPI_Group_free(&neighbours);
  MPI_Group_free(&world);
  MPI_Win_free(&win2);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
