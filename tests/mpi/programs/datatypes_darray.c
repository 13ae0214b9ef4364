/* Distributed arrays: every rank sends its piece of a global array (MPI_Type_create_darray,
 * block x cyclic(2), C and Fortran order) to rank 0, which receives each piece in place
 * with the sender's darray type. The pieces must tile the array exactly once.
 */
// zmpi-test-ranks: 2 4
#include <string.h>

#include "check.h"

#define ROWS 7
#define COLS 10

static void gatherPieces(int rank, int size, int order) {
  int gsizes[2] = {ROWS, COLS};
  int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
  int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2};
  int psizes[2] = {size, 1};
  if (size == 4) psizes[0] = psizes[1] = 2;

  int global[ROWS * COLS], result[ROWS * COLS];
  for (int i = 0; i < ROWS * COLS; ++i) global[i] = 1000 + i;

  MPI_Datatype mine;
  MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, psizes, order, MPI_INT, &mine);
  MPI_Type_commit(&mine);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(mine, &lb, &extent);
  CHECK_EQ_INT(lb, 0);
  CHECK_EQ_INT(extent, ROWS * COLS * (int)sizeof(int));
  MPI_Request request;
  MPI_Isend(global, 1, mine, 0, order, MPI_COMM_WORLD, &request);

  if (rank == 0) {
    memset(result, 0, sizeof result);
    int covered = 0;
    for (int r = 0; r < size; ++r) {
      MPI_Datatype theirs;
      MPI_Type_create_darray(size, r, 2, gsizes, distribs, dargs, psizes, order, MPI_INT, &theirs);
      MPI_Type_commit(&theirs);
      int bytes;
      MPI_Type_size(theirs, &bytes);
      covered += bytes / (int)sizeof(int);
      MPI_Recv(result, 1, theirs, r, order, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Type_free(&theirs);
    }
    CHECK_EQ_INT(covered, ROWS * COLS);
    for (int i = 0; i < ROWS * COLS; ++i) CHECK_EQ_INT(result[i], 1000 + i);
  }
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Type_free(&mine);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  gatherPieces(rank, size, MPI_ORDER_C);
  gatherPieces(rank, size, MPI_ORDER_FORTRAN);
  MPI_Finalize();
  return 0;
}
