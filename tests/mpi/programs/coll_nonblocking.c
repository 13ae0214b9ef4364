/* Nonblocking collectives: every I-collective against a reference; several outstanding at
 * once on different communicators, started in a different order on each rank; completion
 * by MPI_Test polling; and progress while a rank is blocked in a point-to-point receive
 * that can only be satisfied after the collective advanced on that very rank. */
// zmpi-test-ranks: 1 2 3 4 5
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void test_each(int rank, int size) {
  MPI_Request requests[16];
  int n = 0;
  int bc[4] = {0}, in[4], sum[4], red[4] = {-1, -1, -1, -1}, scan[4], exscan[4] = {0};
  int *gathered = malloc(sizeof(int) * 4 * size), *scattered = malloc(sizeof(int) * 4 * size);
  int *all = malloc(sizeof(int) * 4 * size), *a2a_in = malloc(sizeof(int) * size), *a2a_out = malloc(sizeof(int) * size);
  int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
  int *allv = malloc(sizeof(int) * size), *rs_in = malloc(sizeof(int) * size), rs_out = -1, rsb_out = -1, got[4];
  int mine = rank * 5;
  for (int i = 0; i < 4; ++i) {
    in[i] = rank + i;
    if (rank == size - 1) bc[i] = 100 + i;
  }
  for (int r = 0; r < size; ++r) {
    counts[r] = 1;
    displs[r] = size - 1 - r;
    a2a_in[r] = rank * 10 + r;
    rs_in[r] = rank + r;
    for (int i = 0; i < 4; ++i) scattered[4 * r + i] = r * 7 + i;
  }
  MPI_Ibarrier(MPI_COMM_WORLD, &requests[n++]);
  MPI_Ibcast(bc, 4, MPI_INT, size - 1, MPI_COMM_WORLD, &requests[n++]);
  MPI_Ireduce(in, red, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &requests[n++]);
  MPI_Iallreduce(in, sum, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[n++]);
  MPI_Igather(in, 4, MPI_INT, gathered, 4, MPI_INT, 0, MPI_COMM_WORLD, &requests[n++]);
  MPI_Iscatter(scattered, 4, MPI_INT, got, 4, MPI_INT, 0, MPI_COMM_WORLD, &requests[n++]);
  MPI_Iallgather(in, 4, MPI_INT, all, 4, MPI_INT, MPI_COMM_WORLD, &requests[n++]);
  MPI_Iallgatherv(&mine, 1, MPI_INT, allv, counts, displs, MPI_INT, MPI_COMM_WORLD, &requests[n++]);
  MPI_Ialltoall(a2a_in, 1, MPI_INT, a2a_out, 1, MPI_INT, MPI_COMM_WORLD, &requests[n++]);
  MPI_Ireduce_scatter(rs_in, &rs_out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[n++]);
  MPI_Ireduce_scatter_block(rs_in, &rsb_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[n++]);
  MPI_Iscan(in, scan, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[n++]);
  MPI_Iexscan(in, exscan, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[n++]);
  MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
  for (int i = 0; i < 4; ++i) {
    CHECK_EQ_INT(bc[i], 100 + i);
    CHECK_EQ_INT(sum[i], size * (size - 1) / 2 + size * i);
    CHECK_EQ_INT(red[i], rank == 0 ? sum[i] : -1);
    CHECK_EQ_INT(got[i], rank * 7 + i);
    CHECK_EQ_INT(scan[i], rank * (rank + 1) / 2 + (rank + 1) * i);
    if (rank > 0) CHECK_EQ_INT(exscan[i], (rank - 1) * rank / 2 + rank * i);
    for (int r = 0; r < size; ++r) {
      if (rank == 0) CHECK_EQ_INT(gathered[4 * r + i], r + i);
      CHECK_EQ_INT(all[4 * r + i], r + i);
    }
  }
  for (int r = 0; r < size; ++r) {
    CHECK_EQ_INT(allv[size - 1 - r], r * 5);
    CHECK_EQ_INT(a2a_out[r], r * 10 + rank);
  }
  CHECK_EQ_INT(rs_out, size * (size - 1) / 2 + size * rank);
  CHECK_EQ_INT(rsb_out, rs_out);
  free(gathered), free(scattered), free(all), free(a2a_in), free(a2a_out), free(counts), free(displs), free(allv),
      free(rs_in);
}

static void test_vector_forms(int rank, int size) {
  /* Igatherv, Iscatterv, Ialltoallv, Ialltoallw: one int per rank, reversed layouts. */
  int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size), *bytes = malloc(sizeof(int) * size);
  int *gv = malloc(sizeof(int) * size), *sv = malloc(sizeof(int) * size), *a_in = malloc(sizeof(int) * size);
  int *a_out = malloc(sizeof(int) * size), *w_out = malloc(sizeof(int) * size);
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * size);
  for (int r = 0; r < size; ++r) {
    counts[r] = 1;
    displs[r] = size - 1 - r;
    bytes[r] = displs[r] * (int)sizeof(int);
    types[r] = MPI_INT;
    sv[size - 1 - r] = r * 3;
    a_in[size - 1 - r] = rank * 10 + r;
  }
  int mine = rank + 40, got = -1;
  MPI_Request requests[4];
  MPI_Igatherv(&mine, 1, MPI_INT, gv, counts, displs, MPI_INT, size - 1, MPI_COMM_WORLD, &requests[0]);
  MPI_Iscatterv(sv, counts, displs, MPI_INT, &got, 1, MPI_INT, size - 1, MPI_COMM_WORLD, &requests[1]);
  MPI_Ialltoallv(a_in, counts, displs, MPI_INT, a_out, counts, displs, MPI_INT, MPI_COMM_WORLD, &requests[2]);
  MPI_Ialltoallw(a_in, counts, bytes, types, w_out, counts, bytes, types, MPI_COMM_WORLD, &requests[3]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
  CHECK_EQ_INT(got, rank * 3);
  for (int r = 0; r < size; ++r) {
    if (rank == size - 1) CHECK_EQ_INT(gv[size - 1 - r], r + 40);
    CHECK_EQ_INT(a_out[size - 1 - r], r * 10 + rank);
    CHECK_EQ_INT(w_out[size - 1 - r], r * 10 + rank);
  }
  free(counts), free(displs), free(bytes), free(gv), free(sv), free(a_in), free(a_out), free(w_out), free(types);
}

static void test_outstanding(int rank, int size) {
  enum { kComms = 4 };
  MPI_Comm comms[kComms];
  for (int k = 0; k < kComms; ++k) MPI_Comm_dup(MPI_COMM_WORLD, &comms[k]);
  MPI_Request requests[kComms + 1];
  double in[kComms][64], out[kComms][64];
  /* Rank r starts them rotated by r: legal, order only matters per communicator. */
  for (int j = 0; j < kComms; ++j) {
    const int k = (j + rank) % kComms;
    for (int i = 0; i < 64; ++i) in[k][i] = rank * (k + 1) + i;
    MPI_Iallreduce(in[k], out[k], 64, MPI_DOUBLE, MPI_SUM, comms[k], &requests[k]);
  }
  int token = rank == 0 ? 99 : 0;
  MPI_Ibcast(&token, 1, MPI_INT, 0, MPI_COMM_WORLD, &requests[kComms]);
  /* Poll with MPI_Test in reverse order, then wait for the rest. */
  int flag = 0;
  for (int spins = 0; spins < 1000 && !flag; ++spins) MPI_Test(&requests[kComms], &flag, MPI_STATUS_IGNORE);
  MPI_Waitall(kComms + 1, requests, MPI_STATUSES_IGNORE);
  CHECK_EQ_INT(token, 99);
  for (int k = 0; k < kComms; ++k)
    for (int i = 0; i < 64; ++i) CHECK(out[k][i] == (k + 1) * size * (size - 1) / 2.0 + size * i);
  for (int k = 0; k < kComms; ++k) MPI_Comm_free(&comms[k]);
}

static void test_independent_progress(int rank, int size) {
  if (size < 2) return;
  /* Dissemination barrier: the witness completes only after rank 0 forwarded (in a later
   * round) what it received, while rank 0 sits in MPI_Recv waiting for the witness. */
  const int witness = size >= 3 ? 2 : 1;
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  int token = 0;
  if (rank == 0) {
    MPI_Recv(&token, 1, MPI_INT, witness, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_EQ_INT(token, 7);
  } else if (rank == witness) {
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    token = 7;
    MPI_Send(&token, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
  }
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  test_each(rank, size);
  test_vector_forms(rank, size);
  test_outstanding(rank, size);
  test_independent_progress(rank, size);
  MPI_Finalize();
  return 0;
}
