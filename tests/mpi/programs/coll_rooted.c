/* Rooted collectives against locally computed references: Barrier, Bcast (every root,
 * zero and large counts, a derived type), Gather(v) and Scatter(v) with every root and
 * MPI_IN_PLACE at the root. */
// zmpi-test-ranks: 1 2 3 4 5
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int value(int rank, int index) { return rank * 1000 + index; }

static void test_bcast(int rank, int size) {
  const int counts[] = {0, 1, 1000, 100000};
  for (int c = 0; c < 4; ++c) {
    for (int root = 0; root < size; ++root) {
      int n = counts[c];
      int* data = malloc(sizeof(int) * (n + 1));
      for (int i = 0; i < n; ++i) data[i] = rank == root ? value(root, i) : -1;
      MPI_Bcast(data, n, MPI_INT, root, MPI_COMM_WORLD);
      for (int i = 0; i < n; ++i) CHECK_EQ_INT(data[i], value(root, i));
      free(data);
    }
  }
  /* A strided column of a 6x4 matrix: only the column moves. */
  MPI_Datatype column;
  MPI_Type_vector(6, 1, 4, MPI_INT, &column);
  MPI_Type_commit(&column);
  int matrix[6][4];
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j) matrix[i][j] = rank == size - 1 ? value(i, j) : -1;
  MPI_Bcast(&matrix[0][2], 1, column, size - 1, MPI_COMM_WORLD);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j) CHECK_EQ_INT(matrix[i][j], rank == size - 1 || j == 2 ? value(i, j) : -1);
  MPI_Type_free(&column);
}

static void test_gather_scatter(int rank, int size) {
  for (int root = 0; root < size; ++root) {
    for (int in_place = 0; in_place < 2; ++in_place) {
      const int n = 3;
      int mine[3], *all = malloc(sizeof(int) * n * size);
      for (int i = 0; i < n; ++i) mine[i] = value(rank, i);
      for (int i = 0; i < n * size; ++i) all[i] = -1;
      if (in_place && rank == root) memcpy(all + root * n, mine, sizeof mine);
      MPI_Gather(in_place && rank == root ? MPI_IN_PLACE : mine, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD);
      if (rank == root)
        for (int r = 0; r < size; ++r)
          for (int i = 0; i < n; ++i) CHECK_EQ_INT(all[r * n + i], value(r, i));

      /* Scatter back what was gathered, each block plus 7. */
      if (rank == root)
        for (int i = 0; i < n * size; ++i) all[i] = value(i / n, i % n) + 7;
      int got[3] = {-1, -1, -1};
      MPI_Scatter(all, n, MPI_INT, in_place && rank == root ? MPI_IN_PLACE : got, n, MPI_INT, root, MPI_COMM_WORLD);
      if (!(in_place && rank == root))
        for (int i = 0; i < n; ++i) CHECK_EQ_INT(got[i], value(rank, i) + 7);

      /* Gatherv / Scatterv: rank r has r + 1 ints, stored in reverse rank order with gaps. */
      int* counts = malloc(sizeof(int) * size);
      int* displs = malloc(sizeof(int) * size);
      int total = 0;
      for (int r = size - 1; r >= 0; --r) {
        counts[r] = r + 1;
        displs[r] = total;
        total += counts[r] + 2;
      }
      int* vmine = malloc(sizeof(int) * (rank + 1));
      int* vall = malloc(sizeof(int) * total);
      for (int i = 0; i <= rank; ++i) vmine[i] = value(rank, i);
      for (int i = 0; i < total; ++i) vall[i] = -1;
      if (in_place && rank == root) memcpy(vall + displs[rank], vmine, sizeof(int) * (rank + 1));
      MPI_Gatherv(in_place && rank == root ? MPI_IN_PLACE : vmine, rank + 1, MPI_INT, vall, counts, displs, MPI_INT, root,
                  MPI_COMM_WORLD);
      if (rank == root) {
        for (int r = 0; r < size; ++r) {
          for (int i = 0; i < counts[r]; ++i) CHECK_EQ_INT(vall[displs[r] + i], value(r, i));
          CHECK_EQ_INT(vall[displs[r] + counts[r]], -1);
        }
        for (int i = 0; i < total; ++i) vall[i] = vall[i] == -1 ? -1 : vall[i] + 5;
      }
      for (int i = 0; i <= rank; ++i) vmine[i] = -1;
      MPI_Scatterv(vall, counts, displs, MPI_INT, in_place && rank == root ? MPI_IN_PLACE : vmine, rank + 1, MPI_INT,
                   root, MPI_COMM_WORLD);
      if (!(in_place && rank == root))
        for (int i = 0; i <= rank; ++i) CHECK_EQ_INT(vmine[i], value(rank, i) + 5);
      free(vall);
      free(vmine);
      free(displs);
      free(counts);
      free(all);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  test_bcast(rank, size);
  test_gather_scatter(rank, size);
  /* Zero-count gather from a root other than 0. */
  MPI_Gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, size - 1, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
