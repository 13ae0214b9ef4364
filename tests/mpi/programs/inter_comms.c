/* Intercommunicators: MPI_Intercomm_create between two uneven, interleaved groups, its
 * queries (test_inter, sizes, remote group), point-to-point across it (ranks name the
 * remote group, statuses too, contexts isolated from a dup), MPI_Intercomm_merge both
 * ways, MPI_Comm_dup / idup / split / create on it, attributes and names, comparison, and
 * the errors Open MPI and MPICH give for intracommunicator-only and intercommunicator-only
 * calls and for a leader that cannot set one up (everyone gets it: nobody hangs).
 */
// zmpi-test-ranks: 2 3 4
#include "inter_comms.h"

#include <string.h>

#include "check.h"

static int errorClass(int rc) {
  int cls;
  MPI_Error_class(rc, &cls);
  return cls;
}

static void checkQueries(const Inter* x, int size) {
  int flag = 0;
  MPI_Comm_test_inter(x->inter, &flag);
  CHECK_EQ_INT(flag, 1);
  MPI_Comm_test_inter(x->local, &flag);
  CHECK_EQ_INT(flag, 0);
  int sizeA = (size + 1) / 3;
  CHECK_EQ_INT(x->localSize, x->inA ? sizeA : size - sizeA);
  CHECK_EQ_INT(x->remoteSize, x->inA ? size - sizeA : sizeA);
  for (int j = 0; j < x->remoteSize; ++j) CHECK_EQ_INT(x->remoteWorld[j] % 3 == 1, !x->inA);
}

/* Every process sends its world rank to remote rank (localRank % remoteSize); each then
 * receives from MPI_ANY_SOURCE exactly the messages meant for it. */
static void checkPointToPoint(const Inter* x, MPI_Comm comm, int tag) {
  int world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Request request;
  MPI_Isend(&world, 1, MPI_INT, x->localRank % x->remoteSize, tag, comm, &request);
  int expected = 0;
  for (int r = 0; r < x->remoteSize; ++r) expected += r % x->localSize == x->localRank;
  for (int i = 0; i < expected; ++i) {
    int got = -1;
    MPI_Status status;
    MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, tag, comm, &status);
    CHECK(status.MPI_SOURCE >= 0 && status.MPI_SOURCE < x->remoteSize);
    CHECK_EQ_INT(status.MPI_SOURCE % x->localSize, x->localRank);
    CHECK_EQ_INT(got, x->remoteWorld[status.MPI_SOURCE]);
  }
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  /* A named source, and Sendrecv between the two leaders. */
  if (x->localRank == 0) {
    int mine = world, theirs = -1;
    MPI_Sendrecv(&mine, 1, MPI_INT, 0, tag + 1, &theirs, 1, MPI_INT, 0, tag + 1, comm, MPI_STATUS_IGNORE);
    CHECK_EQ_INT(theirs, x->remoteWorld[0]);
  }
}

/* Group A passes highA, B highB: the high group comes second; with equal values the group
 * whose leader has the lower world rank (B, led by world rank 0) comes first. */
/* A message far above the eager limits (rendezvous, through the rings or tcp) between the
 * leaders, both ways at once. */
static void checkLargeMessage(const Inter* x) {
  if (x->localRank != 0) return;
  enum { kInts = 1 << 19 }; /* 2 MiB */
  static int out[kInts], in[kInts];
  for (int i = 0; i < kInts; ++i) out[i] = i ^ x->localWorld[0];
  MPI_Status status;
  MPI_Sendrecv(out, kInts, MPI_INT, 0, 3, in, kInts, MPI_INT, 0, 3, x->inter, &status);
  int count;
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, kInts);
  CHECK_EQ_INT(status.MPI_SOURCE, 0);
  for (int i = 0; i < kInts; i += 4099) CHECK_EQ_INT(in[i], i ^ x->remoteWorld[0]);
}

static void checkMerge(const Inter* x, int size, int highA, int highB) {
  MPI_Comm merged;
  MPI_Intercomm_merge(x->inter, x->inA ? highA : highB, &merged);
  int rank, msize, world;
  MPI_Comm_rank(merged, &rank);
  MPI_Comm_size(merged, &msize);
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  CHECK_EQ_INT(msize, size);
  const int aSecond = highA == highB ? 1 : highA;
  const int second = x->inA ? aSecond : !aSecond;
  CHECK_EQ_INT(rank, second ? x->remoteSize + x->localRank : x->localRank);
  int sum = 0;
  MPI_Allreduce(&world, &sum, 1, MPI_INT, MPI_SUM, merged);
  CHECK_EQ_INT(sum, size * (size - 1) / 2);
  MPI_Comm_free(&merged);
}

static void checkDupAndIsolation(const Inter* x) {
  MPI_Comm dup, idup;
  MPI_Comm_dup(x->inter, &dup);
  int result, flag;
  MPI_Comm_compare(x->inter, dup, &result);
  CHECK_EQ_INT(result, MPI_CONGRUENT);
  MPI_Comm_compare(x->inter, x->inter, &result);
  CHECK_EQ_INT(result, MPI_IDENT);
  MPI_Comm_compare(x->inter, x->local, &result);
  CHECK_EQ_INT(result, MPI_UNEQUAL);
  MPI_Comm_test_inter(dup, &flag);
  CHECK_EQ_INT(flag, 1);
  checkPointToPoint(x, dup, 10);
  /* Same tag on both communicators: each receive gets its own communicator's message. */
  if (x->localRank == 0) {
    int a = 1, b = 2, got = 0;
    MPI_Request requests[2];
    MPI_Isend(&a, 1, MPI_INT, 0, 5, x->inter, &requests[0]);
    MPI_Isend(&b, 1, MPI_INT, 0, 5, dup, &requests[1]);
    MPI_Recv(&got, 1, MPI_INT, 0, 5, dup, MPI_STATUS_IGNORE);
    CHECK_EQ_INT(got, 2);
    MPI_Recv(&got, 1, MPI_INT, 0, 5, x->inter, MPI_STATUS_IGNORE);
    CHECK_EQ_INT(got, 1);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  }
  MPI_Request request;
  MPI_Comm_idup(dup, &idup, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  int remote;
  MPI_Comm_remote_size(idup, &remote);
  CHECK_EQ_INT(remote, x->remoteSize);
  checkPointToPoint(x, idup, 20);
  MPI_Comm_free(&idup);
  MPI_Comm_free(&dup);
}

/* Split by local rank parity, keys reversed: a color the other group lacks gives
 * MPI_COMM_NULL. */
static void checkSplit(const Inter* x) {
  MPI_Comm part;
  const int color = x->localRank % 2;
  MPI_Comm_split(x->inter, color, x->localSize - x->localRank, &part);
  const int remoteOfColor = (x->remoteSize - color + 1) / 2;
  if (remoteOfColor == 0) {
    CHECK(part == MPI_COMM_NULL);
  } else {
    CHECK(part != MPI_COMM_NULL);
    int size, remote, rank;
    MPI_Comm_size(part, &size);
    MPI_Comm_remote_size(part, &remote);
    MPI_Comm_rank(part, &rank);
    CHECK_EQ_INT(size, (x->localSize - color + 1) / 2);
    CHECK_EQ_INT(remote, remoteOfColor);
    /* Keys reversed: the highest local rank of the color is rank 0. */
    const int highest = (x->localSize - 1) % 2 == color ? x->localSize - 1 : x->localSize - 2;
    CHECK_EQ_INT(rank, (highest - x->localRank) / 2);
    int world, got = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    if (rank == 0) {
      MPI_Sendrecv(&world, 1, MPI_INT, 0, 1, &got, 1, MPI_INT, 0, 1, part, MPI_STATUS_IGNORE);
      CHECK_EQ_INT(got % 3 == 1, !x->inA);
    }
    int sum = -1;
    MPI_Allreduce(&world, &sum, 1, MPI_INT, MPI_MAX, part);
    CHECK(sum >= 0);
    MPI_Comm_free(&part);
  }
  MPI_Comm none;
  MPI_Comm_split(x->inter, MPI_UNDEFINED, 0, &none);
  CHECK(none == MPI_COMM_NULL);
}

/* Comm_create with each group's rank 0 only: a 1-to-1 intercommunicator of the leaders. */
static void checkCreate(const Inter* x) {
  MPI_Group local, leader;
  MPI_Comm_group(x->inter, &local);
  int zero = 0;
  MPI_Group_incl(local, 1, &zero, &leader);
  MPI_Comm leaders;
  MPI_Comm_create(x->inter, leader, &leaders);
  if (x->localRank != 0) {
    CHECK(leaders == MPI_COMM_NULL);
  } else {
    int size, remote;
    MPI_Comm_size(leaders, &size);
    MPI_Comm_remote_size(leaders, &remote);
    CHECK(size == 1 && remote == 1);
    MPI_Barrier(leaders);
    MPI_Comm_free(&leaders);
  }
  MPI_Group_free(&leader);
  MPI_Group_free(&local);
}

static void checkAttributesAndNames(const Inter* x) {
  int key;
  static int value = 7;
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
  MPI_Comm_set_attr(x->inter, key, &value);
  MPI_Comm dup;
  MPI_Comm_dup(x->inter, &dup);
  int* got = NULL;
  int flag = 0;
  MPI_Comm_get_attr(dup, key, &got, &flag);
  CHECK(flag && got == &value);
  MPI_Comm_set_name(dup, "across");
  char name[MPI_MAX_OBJECT_NAME];
  int length;
  MPI_Comm_get_name(dup, name, &length);
  CHECK(strcmp(name, "across") == 0);
  MPI_Comm_free(&dup);
  MPI_Comm_delete_attr(x->inter, key);
  MPI_Comm_free_keyval(&key);
}

static void checkErrors(const Inter* x) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(x->inter, MPI_ERRORS_RETURN);
  int size = 0;
  CHECK_EQ_INT(errorClass(MPI_Comm_remote_size(MPI_COMM_WORLD, &size)), MPI_ERR_COMM);
  MPI_Group group;
  CHECK_EQ_INT(errorClass(MPI_Comm_remote_group(MPI_COMM_WORLD, &group)), MPI_ERR_COMM);
  MPI_Comm out;
  CHECK_EQ_INT(errorClass(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &out)), MPI_ERR_COMM);
  int dims[1] = {x->localSize}, periods[1] = {0};
  CHECK_EQ_INT(errorClass(MPI_Cart_create(x->inter, 1, dims, periods, 0, &out)), MPI_ERR_COMM);
  int a = 1, b = 0;
  CHECK_EQ_INT(errorClass(MPI_Scan(&a, &b, 1, MPI_INT, MPI_SUM, x->inter)), MPI_ERR_COMM);
  CHECK_EQ_INT(errorClass(MPI_Comm_split_type(x->inter, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &out)), MPI_ERR_COMM);
  MPI_Win win;
  CHECK_EQ_INT(errorClass(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, x->inter, &win)), MPI_ERR_COMM);
  CHECK_EQ_INT(errorClass(MPI_Bcast(&a, 1, MPI_INT, x->remoteSize, x->inter)), MPI_ERR_ROOT);
  CHECK_EQ_INT(errorClass(MPI_Send(&a, 1, MPI_INT, x->remoteSize, 0, x->inter)), MPI_ERR_RANK);
  CHECK_EQ_INT(errorClass(MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_INT, MPI_SUM, x->inter)), MPI_ERR_BUFFER);
  /* A leader that names itself, or another member of its group, as the remote leader:
   * every process of its group fails (none waits for the leader). */
  CHECK_EQ_INT(errorClass(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 0, 5, &out)), MPI_ERR_RANK);
  CHECK_EQ_INT(errorClass(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 1, 5, &out)), MPI_ERR_RANK);
  CHECK_EQ_INT(errorClass(MPI_Intercomm_create(x->inter, 0, MPI_COMM_WORLD, 0, 5, &out)), MPI_ERR_COMM);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Inter x = makeInter();
  checkQueries(&x, size);
  checkPointToPoint(&x, x.inter, 1);
  checkLargeMessage(&x);
  checkMerge(&x, size, 1, 0);
  checkMerge(&x, size, 0, 1);
  checkMerge(&x, size, 0, 0);
  checkMerge(&x, size, 1, 1);
  checkDupAndIsolation(&x);
  checkSplit(&x);
  checkCreate(&x);
  checkAttributesAndNames(&x);
  checkErrors(&x);
  freeInter(&x);
  MPI_Finalize();
  return 0;
}
