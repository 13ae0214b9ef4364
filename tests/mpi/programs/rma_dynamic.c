/* Dynamic windows: each rank attaches memory, publishes its MPI_Get_address, and its
 * left neighbour puts into it and gets from it by that address; a second region is
 * attached later and reached the same way; detached memory is out of range.
 * zmpi-test-ranks: 1 2 4 */
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  void* attr;
  int flag;
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &attr, &flag);
  CHECK(flag && *(int*)attr == MPI_WIN_FLAVOR_DYNAMIC);

  int* first = malloc(16 * sizeof(int));
  for (int i = 0; i < 16; ++i) first[i] = rank * 100 + i;
  MPI_Win_attach(win, first, 16 * sizeof(int));
  MPI_Aint mine, theirs[2];
  MPI_Get_address(first, &mine);
  MPI_Aint* all = malloc(sizeof(MPI_Aint) * size);
  MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
  theirs[0] = all[right];

  MPI_Win_fence(0, win);
  int got[4];
  MPI_Get(got, 4, MPI_INT, right, theirs[0] + 4 * sizeof(int), 4, MPI_INT, win);
  MPI_Win_fence(0, win);
  for (int i = 0; i < 4; ++i) CHECK_EQ_INT(got[i], right * 100 + 4 + i);
  int value = -rank;
  MPI_Put(&value, 1, MPI_INT, right, theirs[0] + 15 * sizeof(int), 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  CHECK_EQ_INT(first[15], -left);

  /* A second region, attached while the window is in use. */
  double* second = malloc(8 * sizeof(double));
  for (int i = 0; i < 8; ++i) second[i] = 0;
  MPI_Win_attach(win, second, 8 * sizeof(double));
  MPI_Get_address(second, &mine);
  MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
  theirs[1] = all[right];
  MPI_Win_lock_all(0, win);
  double half = 0.5;
  for (int i = 0; i < 8; ++i) {
    MPI_Accumulate(&half, 1, MPI_DOUBLE, right, theirs[1] + i * sizeof(double), 1, MPI_DOUBLE, MPI_SUM, win);
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < 8; ++i) CHECK(second[i] == 0.5);

  /* After detaching, the address is out of range: the put itself says so where the origin
   * reads the target's attach table (one host), else the unlock that completes it. */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(win, second);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
  int rcPut = MPI_Put(&half, 1, MPI_DOUBLE, right, theirs[1], 1, MPI_DOUBLE, win);
  int rcUnlock = MPI_Win_unlock(right, win);
  int cls;
  MPI_Error_class(rcPut != MPI_SUCCESS ? rcPut : rcUnlock, &cls);
  CHECK_EQ_INT(cls, MPI_ERR_RMA_RANGE);
  if (rcPut != MPI_SUCCESS) CHECK_EQ_INT(rcUnlock, MPI_SUCCESS); /* reported once */
  CHECK_EQ_INT(MPI_Win_detach(win, second), MPI_ERR_BASE);

  MPI_Win_detach(win, first);
  MPI_Win_free(&win);
  free(first);
  free(second);
  free(all);
  MPI_Finalize();
  return 0;
}
