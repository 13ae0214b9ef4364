/* Every collective across an intercommunicator, blocking and nonblocking (the same checks
 * run twice, the second time as MPI_I... + MPI_Wait; named coll_ so that it runs over tcp
 * too, mpi.tcp.coll_inter): barrier; bcast, gather(v),
 * scatter(v), reduce with MPI_ROOT / MPI_PROC_NULL roots, in both directions; allgather(v),
 * alltoall(v/w), allreduce, reduce_scatter(_block) across the groups, which are uneven and
 * interleaved in the world (inter_comms.h). Derived datatypes where packing matters.
 */
// zmpi-test-ranks: 2 3 4
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "inter_comms.h"

static int nonblocking;

/* Completes a nonblocking call in the nonblocking round; the blocking forms return MPI_SUCCESS. */
static void finish(MPI_Request* request) {
  if (nonblocking) MPI_Wait(request, MPI_STATUS_IGNORE);
}

#define CALL(blocking, immediate, ...)         \
  do {                                         \
    MPI_Request request_ = MPI_REQUEST_NULL;   \
    if (nonblocking) {                         \
      MPI_##immediate(__VA_ARGS__, &request_); \
    } else {                                   \
      MPI_##blocking(__VA_ARGS__);             \
    }                                          \
    finish(&request_);                         \
  } while (0)

static int worldRank(void) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

/* The root argument of a rooted call whose root is local rank `root` of group A (fromA)
 * or of group B. */
static int rootArg(const Inter* x, int fromA, int root) {
  if (x->inA == fromA) return x->localRank == root ? MPI_ROOT : MPI_PROC_NULL;
  return root;
}

static void checkBcast(const Inter* x, int fromA) {
  /* Root: the last rank of its group. Every other int of 6, through a vector type. */
  const int rootGroupSize = x->inA == fromA ? x->localSize : x->remoteSize;
  const int root = rootGroupSize - 1;
  MPI_Datatype every2;
  MPI_Type_vector(3, 1, 2, MPI_INT, &every2);
  MPI_Type_commit(&every2);
  int buf[6];
  const int arg = rootArg(x, fromA, root);
  for (int i = 0; i < 6; ++i) buf[i] = arg == MPI_ROOT ? 100 + i : -1;
  CALL(Bcast, Ibcast, buf, 1, every2, arg, x->inter);
  if (arg >= 0) {
    for (int i = 0; i < 6; ++i) CHECK_EQ_INT(buf[i], i % 2 == 0 ? 100 + i : -1);
  } else if (arg == MPI_PROC_NULL) {
    for (int i = 0; i < 6; ++i) CHECK_EQ_INT(buf[i], -1);
  }
  MPI_Type_free(&every2);
}

static void checkGatherScatter(const Inter* x, int fromA) {
  const int arg = rootArg(x, fromA, 0);
  const int me = worldRank();
  int got[64 * 2], counts[64], displs[64];
  /* Gather: the root gets [world, world * 10] from every remote process in rank order. */
  int mine[2] = {me, me * 10};
  memset(got, -1, sizeof got);
  CALL(Gather, Igather, mine, 2, MPI_INT, got, 2, MPI_INT, arg, x->inter);
  if (arg == MPI_ROOT) {
    for (int j = 0; j < x->remoteSize; ++j) {
      CHECK_EQ_INT(got[2 * j], x->remoteWorld[j]);
      CHECK_EQ_INT(got[2 * j + 1], x->remoteWorld[j] * 10);
    }
  }
  /* Gatherv: remote rank j sends j % 2 + 1 ints, placed in reverse order. */
  int offset = 0;
  for (int j = x->remoteSize - 1; j >= 0; --j) {
    counts[j] = j % 2 + 1;
    displs[j] = offset;
    offset += counts[j];
  }
  memset(got, -1, sizeof got);
  CALL(Gatherv, Igatherv, mine, x->localRank % 2 + 1, MPI_INT, got, counts, displs, MPI_INT, arg, x->inter);
  if (arg == MPI_ROOT) {
    for (int j = 0; j < x->remoteSize; ++j) {
      CHECK_EQ_INT(got[displs[j]], x->remoteWorld[j]);
      if (counts[j] == 2) CHECK_EQ_INT(got[displs[j] + 1], x->remoteWorld[j] * 10);
    }
  }
  /* Scatter: remote rank j gets [j, world of root's side + j]. */
  int all[64 * 2];
  for (int j = 0; j < x->remoteSize; ++j) {
    all[2 * j] = j;
    all[2 * j + 1] = me + j;
  }
  int two[2] = {-1, -1};
  CALL(Scatter, Iscatter, all, 2, MPI_INT, two, 2, MPI_INT, arg, x->inter);
  const int rootWorld = fromA ? 1 : 0; /* local rank 0 of A / B */
  if (arg >= 0) {
    CHECK_EQ_INT(two[0], x->localRank);
    CHECK_EQ_INT(two[1], rootWorld + x->localRank);
  }
  /* Scatterv with the gatherv layout. */
  two[0] = two[1] = -1;
  CALL(Scatterv, Iscatterv, all, counts, displs, MPI_INT, two, x->localRank % 2 + 1, MPI_INT, arg, x->inter);
  if (arg >= 0) {
    /* The root's all[] as laid out by its own displs (same formula on the root's remote = us). */
    int off = 0, mydispl = 0;
    for (int j = x->localSize - 1; j >= 0; --j) {
      if (j == x->localRank) mydispl = off;
      off += j % 2 + 1;
    }
    const int first = mydispl % 2 == 0 ? mydispl / 2 : rootWorld + mydispl / 2;
    CHECK_EQ_INT(two[0], first);
  }
}

static void checkReduce(const Inter* x, int fromA) {
  const int arg = rootArg(x, fromA, 0);
  const int me = worldRank();
  int mine[3] = {me, 1, -me}, got[3] = {0, 0, 0};
  CALL(Reduce, Ireduce, mine, got, 3, MPI_INT, MPI_SUM, arg, x->inter);
  if (arg == MPI_ROOT) {
    int sum = 0;
    for (int j = 0; j < x->remoteSize; ++j) sum += x->remoteWorld[j];
    CHECK_EQ_INT(got[0], sum);
    CHECK_EQ_INT(got[1], x->remoteSize);
    CHECK_EQ_INT(got[2], -sum);
  }
}

static void checkAll(const Inter* x) {
  const int me = worldRank();
  int got[256], counts[64], displs[64];
  /* Allgather: everyone gets the remote world ranks in order. */
  CALL(Allgather, Iallgather, &me, 1, MPI_INT, got, 1, MPI_INT, x->inter);
  for (int j = 0; j < x->remoteSize; ++j) CHECK_EQ_INT(got[j], x->remoteWorld[j]);
  /* Allgatherv: remote j contributes j + 1 copies, at spaced-out displacements. */
  int copies[64];
  for (int i = 0; i < x->localRank + 1; ++i) copies[i] = me;
  for (int j = 0; j < x->remoteSize; ++j) {
    counts[j] = j + 1;
    displs[j] = 10 * j;
  }
  CALL(Allgatherv, Iallgatherv, copies, x->localRank + 1, MPI_INT, got, counts, displs, MPI_INT, x->inter);
  for (int j = 0; j < x->remoteSize; ++j) {
    for (int i = 0; i <= j; ++i) CHECK_EQ_INT(got[10 * j + i], x->remoteWorld[j]);
  }
  /* Alltoall: block j to remote j holds 100 * me + j. */
  int blocks[64];
  for (int j = 0; j < x->remoteSize; ++j) blocks[j] = 100 * me + j;
  CALL(Alltoall, Ialltoall, blocks, 1, MPI_INT, got, 1, MPI_INT, x->inter);
  for (int j = 0; j < x->remoteSize; ++j) CHECK_EQ_INT(got[j], 100 * x->remoteWorld[j] + x->localRank);
  /* Alltoallv: to remote j, localRank + 1 copies of the alltoall value; from remote j, j + 1. */
  int sendcounts[64], sdispls[64], send[256];
  for (int j = 0; j < x->remoteSize; ++j) {
    sendcounts[j] = x->localRank + 1;
    sdispls[j] = 8 * j;
    for (int i = 0; i < sendcounts[j]; ++i) send[sdispls[j] + i] = 100 * me + j;
  }
  CALL(Alltoallv, Ialltoallv, send, sendcounts, sdispls, MPI_INT, got, counts, displs, MPI_INT, x->inter);
  for (int j = 0; j < x->remoteSize; ++j) {
    for (int i = 0; i <= j; ++i) CHECK_EQ_INT(got[10 * j + i], 100 * x->remoteWorld[j] + x->localRank);
  }
  /* Alltoallw: as alltoall, with byte displacements and a type per peer. */
  MPI_Datatype types[64];
  int ones[64], bytes[64];
  for (int j = 0; j < x->remoteSize; ++j) {
    types[j] = MPI_INT;
    ones[j] = 1;
    bytes[j] = (int)(j * sizeof(int));
  }
  CALL(Alltoallw, Ialltoallw, blocks, ones, bytes, types, got, ones, bytes, types, x->inter);
  for (int j = 0; j < x->remoteSize; ++j) CHECK_EQ_INT(got[j], 100 * x->remoteWorld[j] + x->localRank);
  /* Allreduce: each group gets the sum and max of the other's world ranks. */
  int sum = 0, max = -1;
  for (int j = 0; j < x->remoteSize; ++j) {
    sum += x->remoteWorld[j];
    if (x->remoteWorld[j] > max) max = x->remoteWorld[j];
  }
  int pair[2] = {me, 1}, out[2] = {0, 0};
  CALL(Allreduce, Iallreduce, pair, out, 2, MPI_INT, MPI_SUM, x->inter);
  CHECK_EQ_INT(out[0], sum);
  CHECK_EQ_INT(out[1], x->remoteSize);
  CALL(Allreduce, Iallreduce, &me, out, 1, MPI_INT, MPI_MAX, x->inter);
  CHECK_EQ_INT(out[0], max);
  /* Reduce_scatter: 12 elements in both groups, split evenly over the local group;
   * element i of the other group's sum is sum(world) * 1000 + remoteSize * i. */
  int vector[12], part[12];
  for (int i = 0; i < 12; ++i) vector[i] = me * 1000 + i;
  for (int r = 0; r < x->localSize; ++r) counts[r] = 12 / x->localSize;
  CALL(Reduce_scatter, Ireduce_scatter, vector, part, counts, MPI_INT, MPI_SUM, x->inter);
  const int per = 12 / x->localSize;
  for (int k = 0; k < per; ++k) CHECK_EQ_INT(part[k], sum * 1000 + x->remoteSize * (x->localRank * per + k));
  memset(part, 0, sizeof part);
  CALL(Reduce_scatter_block, Ireduce_scatter_block, vector, part, per, MPI_INT, MPI_SUM, x->inter);
  for (int k = 0; k < per; ++k) CHECK_EQ_INT(part[k], sum * 1000 + x->remoteSize * (x->localRank * per + k));
}

/* The left operand: associative, not commutative. A fold in rank order gives rank 0's. */
static void keepFirst(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] = ((int*)in)[i];
}

static void checkOrderAndPairs(const Inter* x) {
  const int me = worldRank();
  MPI_Op first;
  MPI_Op_create(keepFirst, 0, &first);
  int out = -1;
  CALL(Allreduce, Iallreduce, &me, &out, 1, MPI_INT, first, x->inter);
  CHECK_EQ_INT(out, x->remoteWorld[0]);
  out = -1;
  const int arg = rootArg(x, 1, 0);
  CALL(Reduce, Ireduce, &me, &out, 1, MPI_INT, first, arg, x->inter);
  if (arg == MPI_ROOT) CHECK_EQ_INT(out, x->remoteWorld[0]);
  MPI_Op_free(&first);
  /* MAXLOC over pairs: the largest remote world rank, and where it is. */
  struct {
    int value, index;
  } mine = {me, x->localRank}, best = {-1, -1};
  CALL(Allreduce, Iallreduce, &mine, &best, 1, MPI_2INT, MPI_MAXLOC, x->inter);
  CHECK_EQ_INT(best.value, x->remoteWorld[x->remoteSize - 1]);
  CHECK_EQ_INT(best.index, x->remoteSize - 1);
}

static void checkEverything(const Inter* x) {
  CALL(Barrier, Ibarrier, x->inter);
  for (int fromA = 0; fromA < 2; ++fromA) {
    checkBcast(x, fromA);
    checkGatherScatter(x, fromA);
    checkReduce(x, fromA);
  }
  checkAll(x);
  checkOrderAndPairs(x);
  CALL(Barrier, Ibarrier, x->inter);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Inter x = makeInter();
  /* 12 must split evenly over each group for the reduce_scatter checks (sizes 1..3). */
  nonblocking = 0;
  checkEverything(&x);
  nonblocking = 1;
  checkEverything(&x);
  /* The same on a dup of the intercommunicator. */
  Inter d = x;
  MPI_Comm_dup(x.inter, &d.inter);
  nonblocking = 0;
  checkEverything(&d);
  /* A nonblocking call outlives MPI_Comm_free of its intercommunicator (MPI-3.1 6.4.3). */
  int me = worldRank(), got[64];
  MPI_Request requests[2];
  MPI_Iallgather(&me, 1, MPI_INT, got, 1, MPI_INT, d.inter, &requests[0]);
  MPI_Ibarrier(d.inter, &requests[1]);
  MPI_Comm_free(&d.inter);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  for (int j = 0; j < x.remoteSize; ++j) CHECK_EQ_INT(got[j], x.remoteWorld[j]);
  freeInter(&x);
  MPI_Finalize();
  return 0;
}
