/* Same-host shared-memory collectives (mpi/coll/shm_collectives.h, shm_large.h) against the
 * nonblocking forms, which always run the point-to-point plans: barrier, bcast, reduce,
 * allreduce, allgather, alltoall, sizes up to the slot (2 KiB) and just above, around the
 * staging chunk (64 KiB) and beyond its ring of 4, MPI_IN_PLACE, a non-commutative user op,
 * derived types with gaps (small and large); each collective as the first call on a fresh
 * communicator; a bcast root running far ahead (small and large); communicators created and freed in a
 * loop leave no shared-memory object behind; two threads running collectives on two
 * communicators at once (MPI_THREAD_MULTIPLE). */
// zmpi-test-ranks: 2 3 4 8
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

enum { kSlotInts = 2048 / sizeof(int), kChunkInts = 65536 / sizeof(int) };

static int fill(int rank, int i, int salt) { return rank * 7919 + i * 31 + salt; }

/* 2x2 matrices of unsigned ints (wrapping), multiplied: associative, not commutative. */
static void matmul(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  unsigned* a = in;
  unsigned* b = inout;
  for (int k = 0; k < *len; ++k, a += 4, b += 4) {
    unsigned c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                     a[2] * b[1] + a[3] * b[3]};
    memcpy(b, c, sizeof c);
  }
}

static MPI_Datatype mat_type;
static MPI_Op mat_op;

static void wait_for(MPI_Request* request) { MPI_Wait(request, MPI_STATUS_IGNORE); }

static void check_same(const int* got, const int* want, int n) {
  for (int i = 0; i < n; ++i) CHECK_EQ_INT(got[i], want[i]);
}

/* Allreduce (sum, and the matrix product over count / 4 matrices), in place or not. */
static void test_allreduce(MPI_Comm comm, int count, int in_place) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *in = malloc(sizeof(int) * (count + 1)), *got = malloc(sizeof(int) * (count + 1)),
      *want = malloc(sizeof(int) * (count + 1));
  for (int i = 0; i < count; ++i) in[i] = fill(rank, i, count);
  MPI_Request request;
  MPI_Iallreduce(in, want, count, MPI_INT, MPI_SUM, comm, &request);
  wait_for(&request);
  if (in_place) memcpy(got, in, sizeof(int) * count);
  MPI_Allreduce(in_place ? MPI_IN_PLACE : in, got, count, MPI_INT, MPI_SUM, comm);
  check_same(got, want, count);
  const int matrices = count / 4;
  MPI_Iallreduce(in, want, matrices, mat_type, mat_op, comm, &request);
  wait_for(&request);
  if (in_place) memcpy(got, in, sizeof(int) * count);
  MPI_Allreduce(in_place ? MPI_IN_PLACE : in, got, matrices, mat_type, mat_op, comm);
  check_same(got, want, 4 * matrices);
  free(want);
  free(got);
  free(in);
}

static void test_rooted(MPI_Comm comm, int count) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *in = malloc(sizeof(int) * (count + 1)), *got = malloc(sizeof(int) * (count + 1)),
      *want = malloc(sizeof(int) * (count + 1));
  for (int root = 0; root < size; ++root) {
    for (int i = 0; i < count; ++i) got[i] = rank == root ? fill(root, i, 1) : -1;
    MPI_Bcast(got, count, MPI_INT, root, comm);
    for (int i = 0; i < count; ++i) CHECK_EQ_INT(got[i], fill(root, i, 1));
    const int matrices = count / 4;
    for (int i = 0; i < count; ++i) in[i] = fill(rank, i, 2);
    for (int in_place = 0; in_place < 2; ++in_place) {
      MPI_Request request;
      MPI_Ireduce(in, want, matrices, mat_type, mat_op, root, comm, &request);
      wait_for(&request);
      const int here = in_place && rank == root;
      if (here) memcpy(got, in, sizeof(int) * count);
      MPI_Reduce(here ? MPI_IN_PLACE : in, got, matrices, mat_type, mat_op, root, comm);
      if (rank == root) check_same(got, want, 4 * matrices);
      MPI_Ireduce(in, want, count, MPI_INT, MPI_SUM, root, comm, &request);
      wait_for(&request);
      if (here) memcpy(got, in, sizeof(int) * count);
      MPI_Reduce(here ? MPI_IN_PLACE : in, got, count, MPI_INT, MPI_SUM, root, comm);
      if (rank == root) check_same(got, want, count);
    }
  }
  free(want);
  free(got);
  free(in);
}

static void test_gathers(MPI_Comm comm, int count, int in_place) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int all = count * size;
  int *in = malloc(sizeof(int) * (all + 1)), *got = malloc(sizeof(int) * (all + 1)),
      *want = malloc(sizeof(int) * (all + 1));
  for (int i = 0; i < all; ++i) in[i] = fill(rank, i, 3);
  MPI_Request request;
  MPI_Iallgather(in, count, MPI_INT, want, count, MPI_INT, comm, &request);
  wait_for(&request);
  for (int i = 0; i < all; ++i) got[i] = -1;
  if (in_place) memcpy(got + rank * count, in, sizeof(int) * count);
  MPI_Allgather(in_place ? MPI_IN_PLACE : in, count, MPI_INT, got, count, MPI_INT, comm);
  check_same(got, want, all);
  MPI_Ialltoall(in, count, MPI_INT, want, count, MPI_INT, comm, &request);
  wait_for(&request);
  if (in_place) memcpy(got, in, sizeof(int) * all);
  MPI_Alltoall(in_place ? MPI_IN_PLACE : in, count, MPI_INT, got, count, MPI_INT, comm);
  check_same(got, want, all);
  free(want);
  free(got);
  free(in);
}

/* Every other int: packed into the slots and unpacked, gaps untouched. */
static void test_derived(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Datatype strided;
  MPI_Type_vector(8, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  int in[16], got[16 * 8], want[16 * 8];
  for (int i = 0; i < 16; ++i) in[i] = fill(rank, i, 4);
  for (int i = 0; i < 16 * size; ++i) got[i] = want[i] = -7;
  MPI_Request request;
  MPI_Iallreduce(in, want, 1, strided, MPI_SUM, comm, &request);
  wait_for(&request);
  MPI_Allreduce(in, got, 1, strided, MPI_SUM, comm);
  check_same(got, want, 16);
  MPI_Iallgather(in, 1, strided, want, 1, strided, comm, &request);
  wait_for(&request);
  MPI_Allgather(in, 1, strided, got, 1, strided, comm);
  check_same(got, want, 16 * size);
  memcpy(got, in, sizeof in);
  memcpy(want, in, sizeof in);
  MPI_Ibcast(want, 1, strided, size - 1, comm, &request);
  wait_for(&request);
  MPI_Bcast(got, 1, strided, size - 1, comm);
  check_same(got, want, 16);
  MPI_Type_free(&strided);
}

/* Every other int of 3 chunks' worth: packed into scratch around the staging rings. */
static void test_derived_large(MPI_Comm comm) {
  enum { kInts = 3 * kChunkInts + 5 };
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Datatype strided;
  MPI_Type_vector(kInts, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(strided, &lb, &extent);
  const size_t span = (size_t)extent / sizeof(int) + 1; /* ints per element, with its gap */
  int *in = malloc(sizeof(int) * span * size), *got = malloc(sizeof(int) * span * size),
      *want = malloc(sizeof(int) * span * size);
  for (size_t i = 0; i < span * size; ++i) in[i] = fill(rank, (int)i, 6);
  for (size_t i = 0; i < span * size; ++i) got[i] = want[i] = -7;
  MPI_Request request;
  MPI_Iallreduce(in, want, 1, strided, MPI_SUM, comm, &request);
  wait_for(&request);
  MPI_Allreduce(in, got, 1, strided, MPI_SUM, comm);
  check_same(got, want, (int)span);
  MPI_Datatype spaced; /* resized to the span, so blocks follow each other */
  MPI_Type_create_resized(strided, 0, (MPI_Aint)(span * sizeof(int)), &spaced);
  MPI_Type_commit(&spaced);
  MPI_Iallgather(in, 1, spaced, want, 1, spaced, comm, &request);
  wait_for(&request);
  MPI_Allgather(in, 1, spaced, got, 1, spaced, comm);
  check_same(got, want, (int)span * size);
  MPI_Ialltoall(in, 1, spaced, want, 1, spaced, comm, &request);
  wait_for(&request);
  MPI_Alltoall(in, 1, spaced, got, 1, spaced, comm);
  check_same(got, want, (int)span * size);
  memcpy(got, in, sizeof(int) * span);
  memcpy(want, in, sizeof(int) * span);
  MPI_Ibcast(want, 1, strided, size - 1, comm, &request);
  wait_for(&request);
  MPI_Bcast(got, 1, strided, size - 1, comm);
  check_same(got, want, (int)span);
  MPI_Type_free(&spaced);
  MPI_Type_free(&strided);
  free(want);
  free(got);
  free(in);
}

/* Each collective as the first calls on a fresh communicator, the third of which sets its
 * shared memory up (ZMPI_COLL_SHM_AFTER, default 2): the set-up call is a barrier, a
 * reduce, an allreduce, an allgather (twice), a bcast, an alltoall. */
static void first_calls(MPI_Comm comm, int kind) {
  switch (kind) {
    case 0:
      MPI_Barrier(comm);
      break;
    case 1:
      test_rooted(comm, 5);
      break;
    case 2:
      test_allreduce(comm, 8, 0);
      break;
    case 3:
    case 4:
      test_gathers(comm, 3, kind == 4);
      break;
    case 5:
      test_derived(comm);
      break;
    default: { /* alltoall alone */
      int size, rank;
      MPI_Comm_size(comm, &size);
      MPI_Comm_rank(comm, &rank);
      int in[8], out[8];
      for (int q = 0; q < size; ++q) in[q] = fill(rank, q, 5);
      MPI_Alltoall(in, 1, MPI_INT, out, 1, MPI_INT, comm);
      for (int q = 0; q < size; ++q) CHECK_EQ_INT(out[q], fill(q, rank, 5));
      break;
    }
  }
}

static void test_first_calls(void) {
  for (int kind = 0; kind < 7; ++kind) {
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    for (int i = 0; i < 3; ++i) first_calls(comm, kind);
    MPI_Barrier(comm);
    MPI_Comm_free(&comm);
  }
}

/* The root never waits for a bcast: it may run ahead, never past a slot not yet read. */
static void test_run_ahead(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 1000; ++i) {
    int data[4] = {rank == 0 ? i : -1, rank == 0 ? 2 * i : -1, 0, 0};
    MPI_Bcast(data, 4, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK_EQ_INT(data[0], i);
    CHECK_EQ_INT(data[1], 2 * i);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* Through the staging rings: 1 to 3 chunks a call, roots taking turns. */
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* data = malloc(sizeof(int) * 3 * kChunkInts);
  for (int i = 0; i < 200; ++i) {
    const int count = kSlotInts + 1 + (i * 7919) % (3 * kChunkInts - kSlotInts - 1), root = (i / 10) % size;
    for (int k = 0; k < count; ++k) data[k] = rank == root ? i + k : -1;
    MPI_Bcast(data, count, MPI_INT, root, MPI_COMM_WORLD);
    for (int k = 0; k < count; ++k) CHECK_EQ_INT(data[k], i + k);
  }
  free(data);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Segments are unlinked once mapped: none of this process's stays in /dev/shm. */
static int my_segments(void) {
  char mark[32];
  snprintf(mark, sizeof mark, "-%d-c", (int)getpid());
  int found = 0;
  DIR* dir = opendir("/dev/shm");
  if (dir == NULL) return 0;
  for (struct dirent* entry; (entry = readdir(dir)) != NULL;) found += strstr(entry->d_name, mark) != NULL;
  closedir(dir);
  return found;
}

static void test_many_comms(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 40; ++i) {
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(dup, rank % 2, -rank, &half);
    int one = 1, total = 0, half_size;
    MPI_Comm_size(half, &half_size);
    for (int k = 0; k < 3; ++k) { /* the third call sets the segments up */
      MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, half);
      CHECK_EQ_INT(total, half_size);
      MPI_Barrier(dup);
    }
    CHECK_EQ_INT(my_segments(), 0);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
  }
}

/* Each thread its own communicator: their shared-memory collectives run concurrently. */
static void* thread_body(void* arg) {
  MPI_Comm comm = *(MPI_Comm*)arg;
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int i = 0; i < 500; ++i) {
    int in[2] = {rank + i, 1}, out[2] = {-1, -1};
    MPI_Allreduce(in, out, 2, MPI_INT, MPI_SUM, comm);
    CHECK_EQ_INT(out[0], size * i + size * (size - 1) / 2);
    CHECK_EQ_INT(out[1], size);
    int value = rank == i % size ? i : -1;
    MPI_Bcast(&value, 1, MPI_INT, i % size, comm);
    CHECK_EQ_INT(value, i);
  }
  return NULL;
}

static void test_threads(void) {
  MPI_Comm comms[2];
  pthread_t threads[2];
  for (int t = 0; t < 2; ++t) MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
  for (int t = 0; t < 2; ++t) CHECK(pthread_create(&threads[t], NULL, thread_body, &comms[t]) == 0);
  for (int t = 0; t < 2; ++t) pthread_join(threads[t], NULL);
  for (int t = 0; t < 2; ++t) MPI_Comm_free(&comms[t]);
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  CHECK_EQ_INT(provided, MPI_THREAD_MULTIPLE);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Type_contiguous(4, MPI_UNSIGNED, &mat_type);
  MPI_Type_commit(&mat_type);
  MPI_Op_create(matmul, 0, &mat_op);
  test_first_calls();
  const int counts[] = {1,          4,          100,           kSlotInts / 8,  kSlotInts / size, kSlotInts / size + 1,
                        kSlotInts,  kSlotInts + 1, 2 * kSlotInts, kChunkInts - 1, kChunkInts + 1,   5 * kChunkInts + 3};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
    for (int in_place = 0; in_place < 2; ++in_place) {
      test_allreduce(MPI_COMM_WORLD, counts[c], in_place);
      test_gathers(MPI_COMM_WORLD, counts[c], in_place);
    }
    test_rooted(MPI_COMM_WORLD, counts[c]);
  }
  test_derived(MPI_COMM_WORLD);
  test_derived_large(MPI_COMM_WORLD);
  test_run_ahead();
  test_many_comms();
  test_threads();
  MPI_Op_free(&mat_op);
  MPI_Type_free(&mat_type);
  MPI_Finalize();
  return 0;
}
