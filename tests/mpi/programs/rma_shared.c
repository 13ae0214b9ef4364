/* MPI_Win_allocate_shared on each host's ranks: every rank stores into its own part,
 * MPI_Win_sync + barrier, then loads its neighbours' parts through the pointers
 * MPI_Win_shared_query gives; parts are contiguous in rank order; puts and accumulates
 * reach the same memory.
 * zmpi-test-ranks: 1 2 4 */
#include "check.h"

enum { kInts = 64 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int rank, size;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_size(node, &size);

  int* mine;
  MPI_Win win;
  /* Rank 1 asks for nothing: a zero-size part in the middle must not break contiguity. */
  MPI_Aint bytes = rank == 1 ? 0 : kInts * sizeof(int);
  MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, node, &mine, &win);
  void* attr;
  int flag;
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &attr, &flag);
  CHECK(flag && *(int*)attr == MPI_WIN_FLAVOR_SHARED);

  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  if (bytes > 0) {
    for (int i = 0; i < kInts; ++i) mine[i] = rank * 1000 + i;
  }
  MPI_Win_sync(win);
  MPI_Barrier(node);
  MPI_Win_sync(win);

  char* previousEnd = NULL;
  for (int r = 0; r < size; ++r) {
    MPI_Aint size_r;
    int unit;
    int* base;
    MPI_Win_shared_query(win, r, &size_r, &unit, &base);
    CHECK_EQ_INT(unit, sizeof(int));
    CHECK_EQ_INT(size_r, r == 1 ? 0 : kInts * (MPI_Aint)sizeof(int));
    if (r == rank) CHECK(base == mine);
    if (previousEnd != NULL) CHECK((char*)base == previousEnd);
    previousEnd = (char*)base + size_r;
    for (int i = 0; i < (int)(size_r / sizeof(int)); ++i) CHECK_EQ_INT(base[i], r * 1000 + i);
  }
  MPI_Aint firstSize;
  int firstUnit;
  int* first;
  MPI_Win_shared_query(win, MPI_PROC_NULL, &firstSize, &firstUnit, &first);
  MPI_Aint zeroSize;
  int* zero;
  MPI_Win_shared_query(win, 0, &zeroSize, &firstUnit, &zero);
  CHECK(first == zero && firstSize == zeroSize);
  MPI_Barrier(node); /* everyone has read before anyone writes again */

  /* One-sided operations on the same memory: put into rank 0's part, accumulate into it. */
  int slot = rank, value = -rank - 1, one = 1;
  MPI_Put(&value, 1, MPI_INT, 0, slot, 1, MPI_INT, win);
  MPI_Accumulate(&one, 1, MPI_INT, 0, kInts - 1, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_flush_all(win);
  MPI_Win_sync(win);
  MPI_Barrier(node);
  MPI_Win_sync(win);
  for (int r = 0; r < size; ++r) CHECK_EQ_INT(zero[r], -r - 1);
  CHECK_EQ_INT(zero[kInts - 1], kInts - 1 + size);
  MPI_Win_unlock_all(win);

  /* Another rank's part, written by direct stores, read back with MPI_Get. */
  if (size > 2) {
    int got = 0;
    MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
    MPI_Get(&got, 1, MPI_INT, 2, 5, 1, MPI_INT, win);
    MPI_Win_unlock(2, win);
    CHECK_EQ_INT(got, 2 * 1000 + 5);
  }
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
