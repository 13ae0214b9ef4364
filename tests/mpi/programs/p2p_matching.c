/* Tag and wildcard matching: every rank sends to rank 0 messages with several tags;
 * rank 0 receives them by specific tag out of order, then by MPI_ANY_SOURCE/MPI_ANY_TAG,
 * and checks non-overtaking order per sender. Also MPI_PROC_NULL and status fields.
 * zmpi-test-ranks: 2 4 5 */
#include "check.h"

#define N 20

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0) {
    int marker = -rank;
    MPI_Send(&marker, 1, MPI_INT, 0, 1000, MPI_COMM_WORLD); /* taken by the wildcard loop */
    for (int i = 0; i < N; ++i) {
      int value = rank * 100 + i;
      MPI_Send(&value, 1, MPI_INT, 0, i % 4, MPI_COMM_WORLD);
    }
  } else {
    int next[64] = {0};
    for (int k = 0; k < (size - 1) * N; ++k) {
      int value;
      MPI_Status status;
      MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      if (status.MPI_TAG == 1000) { /* marker can come first by wildcard: put it back in the count */
        CHECK_EQ_INT(value, -status.MPI_SOURCE);
        k--;
        continue;
      }
      int src = status.MPI_SOURCE;
      CHECK(src > 0 && src < size);
      CHECK_EQ_INT(value, src * 100 + next[src]); /* non-overtaking per sender */
      CHECK_EQ_INT(status.MPI_TAG, next[src] % 4);
      next[src]++;
    }
    for (int s = 1; s < size; ++s) CHECK_EQ_INT(next[s], N);
  }
  /* Specific tag out of arrival order (after the barrier, so no wildcard above takes them). */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    for (int t = 0; t < 3; ++t) MPI_Send(&t, 1, MPI_INT, 0, 50 + t, MPI_COMM_WORLD);
  } else if (rank == 0) {
    for (int t = 2; t >= 0; --t) {
      int v;
      MPI_Recv(&v, 1, MPI_INT, 1, 50 + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK_EQ_INT(v, t);
    }
  }
  /* MPI_PROC_NULL: immediate, status says so. */
  MPI_Status status;
  int dummy = 5;
  MPI_Send(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Recv(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &status);
  CHECK_EQ_INT(status.MPI_SOURCE, MPI_PROC_NULL);
  CHECK_EQ_INT(status.MPI_TAG, MPI_ANY_TAG);
  int count;
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, 0);
  CHECK_EQ_INT(dummy, 5);
  MPI_Finalize();
  return 0;
}
