/* Allgather(v) and Alltoall(v, w) against locally computed references, with MPI_IN_PLACE,
 * zero counts and a derived type (a strided column received into a matrix). */
// zmpi-test-ranks: 1 2 3 4 5
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int value(int rank, int index) { return rank * 1000 + index; }

static void test_allgather(int rank, int size) {
  for (int in_place = 0; in_place < 2; ++in_place) {
    for (int n = 0; n < 4; n += 3) {
      int mine[3], *all = malloc(sizeof(int) * (3 * size + 1));
      for (int i = 0; i < n; ++i) mine[i] = value(rank, i);
      for (int i = 0; i < n * size; ++i) all[i] = -1;
      if (in_place) memcpy(all + rank * n, mine, sizeof(int) * n);
      MPI_Allgather(in_place ? MPI_IN_PLACE : mine, n, MPI_INT, all, n, MPI_INT, MPI_COMM_WORLD);
      for (int r = 0; r < size; ++r)
        for (int i = 0; i < n; ++i) CHECK_EQ_INT(all[r * n + i], value(r, i));
      free(all);
    }
    /* Allgatherv: rank r contributes r % 3 ints, blocks in reverse order. */
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size), total = 0;
    for (int r = size - 1; r >= 0; --r) {
      counts[r] = r % 3;
      displs[r] = total;
      total += counts[r];
    }
    int mine[3], *all = malloc(sizeof(int) * (total + 1));
    for (int i = 0; i < counts[rank]; ++i) mine[i] = value(rank, i);
    for (int i = 0; i < total; ++i) all[i] = -1;
    if (in_place) memcpy(all + displs[rank], mine, sizeof(int) * counts[rank]);
    MPI_Allgatherv(in_place ? MPI_IN_PLACE : mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < counts[r]; ++i) CHECK_EQ_INT(all[displs[r] + i], value(r, i));
    free(all);
    free(displs);
    free(counts);
  }
  /* Derived type: each rank's 4 ints land in column `rank` of a 4 x size matrix. */
  MPI_Datatype column, resized;
  MPI_Type_vector(4, 1, size, MPI_INT, &column);
  MPI_Type_create_resized(column, 0, sizeof(int), &resized);
  MPI_Type_commit(&resized);
  int mine[4], *matrix = malloc(sizeof(int) * 4 * size);
  for (int i = 0; i < 4; ++i) mine[i] = value(rank, i);
  MPI_Allgather(mine, 4, MPI_INT, matrix, 1, resized, MPI_COMM_WORLD);
  for (int i = 0; i < 4; ++i)
    for (int r = 0; r < size; ++r) CHECK_EQ_INT(matrix[i * size + r], value(r, i));
  free(matrix);
  MPI_Type_free(&resized);
  MPI_Type_free(&column);
}

static void test_alltoall(int rank, int size) {
  for (int in_place = 0; in_place < 2; ++in_place) {
    const int n = 2;
    int *send = malloc(sizeof(int) * n * size), *recv = malloc(sizeof(int) * n * size);
    for (int d = 0; d < size; ++d)
      for (int i = 0; i < n; ++i) send[d * n + i] = value(rank * 10 + d, i);
    if (in_place) memcpy(recv, send, sizeof(int) * n * size);
    MPI_Alltoall(in_place ? MPI_IN_PLACE : send, n, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD);
    for (int s = 0; s < size; ++s)
      for (int i = 0; i < n; ++i) CHECK_EQ_INT(recv[s * n + i], value(s * 10 + rank, i));
    free(send);
    free(recv);
  }
  /* Alltoallv / Alltoallw: rank s sends (s + d) % 3 ints to d, layouts in reverse order. */
  int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
  int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
  int *sdb = malloc(sizeof(int) * size), *rdb = malloc(sizeof(int) * size);
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * size);
  int stotal = 0, rtotal = 0;
  for (int d = size - 1; d >= 0; --d) {
    sc[d] = (rank + d) % 3;
    sd[d] = stotal;
    sdb[d] = stotal * (int)sizeof(int);
    stotal += sc[d];
    rc[d] = (d + rank) % 3;
    rd[d] = rtotal;
    rdb[d] = rtotal * (int)sizeof(int);
    rtotal += rc[d];
    types[d] = MPI_INT;
  }
  int *send = malloc(sizeof(int) * (stotal + 1)), *recv = malloc(sizeof(int) * (rtotal + 1));
  int* recvw = malloc(sizeof(int) * (rtotal + 1));
  for (int d = 0; d < size; ++d)
    for (int i = 0; i < sc[d]; ++i) send[sd[d] + i] = value(rank * 10 + d, i);
  MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoallw(send, sc, sdb, types, recvw, rc, rdb, types, MPI_COMM_WORLD);
  for (int s = 0; s < size; ++s)
    for (int i = 0; i < rc[s]; ++i) {
      CHECK_EQ_INT(recv[rd[s] + i], value(s * 10 + rank, i));
      CHECK_EQ_INT(recvw[rd[s] + i], value(s * 10 + rank, i));
    }
  /* Alltoallv in place: the symmetric layout (counts as seen from both sides agree). */
  if (rtotal > 0) memcpy(recv, send, sizeof(int) * stotal);
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, recv, rc, rd, MPI_INT, MPI_COMM_WORLD);
  for (int s = 0; s < size; ++s)
    for (int i = 0; i < rc[s]; ++i) CHECK_EQ_INT(recv[rd[s] + i], value(s * 10 + rank, i));
  free(recvw);
  free(recv);
  free(send);
  free(types);
  free(rdb);
  free(sdb);
  free(rd);
  free(rc);
  free(sd);
  free(sc);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  test_allgather(rank, size);
  test_alltoall(rank, size);
  MPI_Finalize();
  return 0;
}
