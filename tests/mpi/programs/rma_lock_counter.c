/* Lock epochs and accumulate atomicity with concurrent origins.
 *  - Exclusive locks: every rank increments a counter at rank 0 by get + flush + put
 *    (not atomic by itself): only mutual exclusion makes the total right.
 *  - Shared locks (lock_all): every rank fetch-and-adds a counter at the last rank; the
 *    fetched values must be exactly 0 .. size*kFetches-1, each seen once.
 *  - Concurrent MPI_Accumulate and MPI_Get_accumulate on the same doubles sum exactly.
 * zmpi-test-ranks: 1 2 4 */
#include <stdlib.h>

#include "check.h"

enum { kIncrements = 50, kFetches = 100, kElements = 16, kAccumulates = 40 };

static void exclusiveCounter(int rank, int size) {
  long* counter;
  MPI_Win win;
  MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
  *counter = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < kIncrements; ++i) {
    long value;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Get(&value, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    MPI_Win_flush(0, win);
    value += 1;
    MPI_Put(&value, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    MPI_Win_unlock(0, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    CHECK_EQ_INT(*counter, (long)kIncrements * size);
    MPI_Win_unlock(0, win);
  }
  MPI_Win_free(&win);
}

static void fetchAndAdd(int rank, int size) {
  int counter = 0;
  MPI_Win win;
  MPI_Win_create(&counter, sizeof counter, sizeof counter, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int target = size - 1, one = 1;
  int fetched[kFetches];
  MPI_Win_lock_all(0, win);
  for (int i = 0; i < kFetches; ++i) {
    MPI_Fetch_and_op(&one, &fetched[i], MPI_INT, target, 0, MPI_SUM, win);
    MPI_Win_flush(target, win);
  }
  MPI_Win_unlock_all(win);
  for (int i = 1; i < kFetches; ++i) CHECK(fetched[i] > fetched[i - 1]); /* one origin's order holds */

  int* all = rank == 0 ? malloc(sizeof(int) * kFetches * size) : NULL;
  MPI_Gather(fetched, kFetches, MPI_INT, all, kFetches, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    char* seen = calloc((size_t)kFetches * size, 1);
    for (int i = 0; i < kFetches * size; ++i) {
      CHECK(all[i] >= 0 && all[i] < kFetches * size);
      CHECK(!seen[all[i]]);
      seen[all[i]] = 1;
    }
    free(seen);
    free(all);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == target) CHECK_EQ_INT(counter, kFetches * size);
  MPI_Win_free(&win);
}

static void concurrentAccumulates(int rank, int size) {
  double sums[kElements];
  for (int i = 0; i < kElements; ++i) sums[i] = 0;
  MPI_Win win;
  MPI_Win_create(sums, sizeof sums, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  double add[kElements], before[kElements];
  for (int i = 0; i < kElements; ++i) add[i] = i + 1;
  MPI_Win_lock_all(0, win);
  for (int k = 0; k < kAccumulates; ++k) {
    for (int target = 0; target < size; ++target) {
      if (k % 2 == 0) {
        MPI_Accumulate(add, kElements, MPI_DOUBLE, target, 0, kElements, MPI_DOUBLE, MPI_SUM, win);
      } else {
        MPI_Get_accumulate(add, kElements, MPI_DOUBLE, before, kElements, MPI_DOUBLE, target, 0, kElements, MPI_DOUBLE,
                           MPI_SUM, win);
        MPI_Win_flush(target, win);
        for (int i = 0; i < kElements; ++i) CHECK(before[i] >= 0 && before[i] <= (i + 1.0) * kAccumulates * size);
      }
    }
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  /* Read our own window through MPI_NO_OP, which goes through the same atomic path. */
  double read[kElements];
  MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
  MPI_Get_accumulate(NULL, 0, MPI_DOUBLE, read, kElements, MPI_DOUBLE, rank, 0, kElements, MPI_DOUBLE, MPI_NO_OP, win);
  MPI_Win_unlock(rank, win);
  for (int i = 0; i < kElements; ++i) {
    CHECK(sums[i] == (i + 1.0) * kAccumulates * size);
    CHECK(read[i] == sums[i]);
  }
  MPI_Win_free(&win);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  exclusiveCounter(rank, size);
  fetchAndAdd(rank, size);
  concurrentAccumulates(rank, size);
  MPI_Finalize();
  return 0;
}
