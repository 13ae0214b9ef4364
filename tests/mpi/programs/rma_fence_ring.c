/* Fence epochs: each rank puts into its right neighbour's window and gets from its left
 * one, all ranks accumulate into rank 0, a strided target datatype scatters into every
 * other slot; window attributes, group and name; MPI_Win_allocate and MPI_Rput/MPI_Rget.
 * zmpi-test-ranks: 1 2 4 */
#include <string.h>

#include "check.h"

enum { kSlots = 8 };

static void fenceRing(int rank, int size) {
  int memory[kSlots];
  for (int i = 0; i < kSlots; ++i) memory[i] = -1;
  MPI_Win win;
  MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  for (int round = 0; round < 3; ++round) {
    int value = 100 * round + rank;
    int fromLeft = -1;
    MPI_Win_fence(0, win);
    MPI_Put(&value, 1, MPI_INT, right, round, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    CHECK_EQ_INT(memory[round], 100 * round + left);
    MPI_Get(&fromLeft, 1, MPI_INT, left, round, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    CHECK_EQ_INT(fromLeft, 100 * round + (left + size - 1) % size);
  }

  /* Every rank adds rank+1 to rank 0's slot 7: 1 + 2 + ... + size. */
  if (rank == 0) memory[7] = 0;
  MPI_Win_fence(0, win);
  int contribution = rank + 1;
  MPI_Accumulate(&contribution, 1, MPI_INT, 0, 7, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  if (rank == 0) CHECK_EQ_INT(memory[7], size * (size + 1) / 2);

  /* A vector target type: 4 values into slots 0, 2, 4, 6 of the right neighbour. */
  MPI_Datatype everyOther;
  MPI_Type_vector(4, 1, 2, MPI_INT, &everyOther);
  MPI_Type_commit(&everyOther);
  int four[4] = {rank * 10, rank * 10 + 1, rank * 10 + 2, rank * 10 + 3};
  for (int i = 0; i < kSlots; ++i) memory[i] = -1;
  MPI_Win_fence(0, win);
  MPI_Put(four, 4, MPI_INT, right, 0, 1, everyOther, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  for (int i = 0; i < kSlots; ++i) CHECK_EQ_INT(memory[i], i % 2 == 0 ? left * 10 + i / 2 : -1);
  MPI_Type_free(&everyOther);

  void* attr;
  int flag;
  MPI_Win_get_attr(win, MPI_WIN_BASE, &attr, &flag);
  CHECK(flag && attr == memory);
  MPI_Win_get_attr(win, MPI_WIN_SIZE, &attr, &flag);
  CHECK(flag && *(MPI_Aint*)attr == (MPI_Aint)sizeof memory);
  MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &attr, &flag);
  CHECK(flag && *(int*)attr == (int)sizeof(int));
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &attr, &flag);
  CHECK(flag && *(int*)attr == MPI_WIN_FLAVOR_CREATE);
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &attr, &flag);
  CHECK(flag && *(int*)attr == MPI_WIN_UNIFIED);

  MPI_Group group, worldGroup;
  int result;
  MPI_Win_get_group(win, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &worldGroup);
  MPI_Group_compare(group, worldGroup, &result);
  CHECK_EQ_INT(result, MPI_IDENT);
  MPI_Group_free(&group);
  MPI_Group_free(&worldGroup);

  char name[MPI_MAX_OBJECT_NAME];
  int length;
  MPI_Win_get_name(win, name, &length);
  CHECK_EQ_INT(length, 0);
  MPI_Win_set_name(win, "ring window");
  MPI_Win_get_name(win, name, &length);
  CHECK(strcmp(name, "ring window") == 0 && length == 11);

  MPI_Win_free(&win);
  CHECK(win == MPI_WIN_NULL);
}

/* MPI_Win_allocate, with request-based operations inside a lock_all epoch. */
static void allocatedRequests(int rank, int size) {
  double* base;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 4; ++i) base[i] = rank + i / 10.0;
  void* attr;
  int flag;
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &attr, &flag);
  CHECK(flag && *(int*)attr == MPI_WIN_FLAVOR_ALLOCATE);
  MPI_Barrier(MPI_COMM_WORLD);

  int right = (rank + 1) % size;
  double got[4] = {0, 0, 0, 0}, mine = -rank;
  MPI_Request requests[2];
  MPI_Win_lock_all(0, win);
  MPI_Rget(got, 4, MPI_DOUBLE, right, 0, 4, MPI_DOUBLE, win, &requests[0]);
  MPI_Waitall(1, requests, MPI_STATUSES_IGNORE);
  for (int i = 0; i < 4; ++i) CHECK(got[i] == right + i / 10.0);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD); /* everyone has read before anyone writes */
  MPI_Win_lock_all(0, win);
  MPI_Rput(&mine, 1, MPI_DOUBLE, right, 3, 1, MPI_DOUBLE, win, &requests[1]);
  MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(base[3] == -((rank + size - 1) % size));
  MPI_Win_free(&win);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  fenceRing(rank, size);
  allocatedRequests(rank, size);
  MPI_Finalize();
  return 0;
}
