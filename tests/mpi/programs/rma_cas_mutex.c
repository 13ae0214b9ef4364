/* A mutex built from MPI_Compare_and_swap on a lock word at rank 0 (shared lock_all
 * epoch, so only the CAS's atomicity excludes): inside it, each rank appends its rank to
 * a log at rank 0 with plain get/put. Every entry must land in its own slot.
 * zmpi-test-ranks: 1 2 4 */
#include "check.h"

enum { kRounds = 20, kLogSlots = 1 + kRounds * 8 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size <= 8);
  /* slot 0: the lock word (0 free, r+1 held by r); slot 1: log length; then the log. */
  long memory[2 + kLogSlots];
  for (int i = 0; i < 2 + kLogSlots; ++i) memory[i] = 0;
  MPI_Win win;
  MPI_Win_create(memory, sizeof memory, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_lock_all(0, win);
  const long free_ = 0, mine = rank + 1;
  for (int round = 0; round < kRounds; ++round) {
    long previous;
    do {
      MPI_Compare_and_swap(&mine, &free_, &previous, MPI_LONG, 0, 0, win);
      MPI_Win_flush(0, win);
    } while (previous != free_);
    long length;
    MPI_Get(&length, 1, MPI_LONG, 0, 1, 1, MPI_LONG, win);
    MPI_Win_flush(0, win);
    long entry = rank, next = length + 1;
    MPI_Put(&entry, 1, MPI_LONG, 0, 2 + length, 1, MPI_LONG, win);
    MPI_Put(&next, 1, MPI_LONG, 0, 1, 1, MPI_LONG, win);
    MPI_Win_flush(0, win);
    long released;
    MPI_Compare_and_swap(&free_, &mine, &released, MPI_LONG, 0, 0, win);
    MPI_Win_flush(0, win);
    CHECK_EQ_INT(released, mine);
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    CHECK_EQ_INT(memory[0], 0);
    CHECK_EQ_INT(memory[1], (long)kRounds * size);
    int count[8] = {0};
    for (long i = 0; i < memory[1]; ++i) {
      CHECK(memory[2 + i] >= 0 && memory[2 + i] < size);
      count[memory[2 + i]]++;
    }
    for (int r = 0; r < size; ++r) CHECK_EQ_INT(count[r], kRounds);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
