/* A communicator and its dup carry traffic at the same time with the same tags (and
 * wildcard receives): nothing crosses over. Also MPI_Comm_idup, _dup_with_info, _create,
 * _create_group, and attributes copied by their keyval's callback on dup.
 */
// zmpi-test-ranks: 1 2 3 4 6
#include <stdlib.h>

#include "check.h"

static int deletes = 0;
static int countDelete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  ++deletes;
  return MPI_SUCCESS;
}

/* Every rank sends (base + its rank) to every rank on `comm` with tag 7, twice. */
static void allToAllTraffic(MPI_Comm a, MPI_Comm b, int rank, int size) {
  int* fromA = malloc(sizeof(int) * 2 * size);
  int* fromB = malloc(sizeof(int) * 2 * size);
  int* out = malloc(sizeof(int) * 2 * size);
  MPI_Request* requests = malloc(sizeof(MPI_Request) * 8 * size);
  int n = 0;
  /* Receives on b first, with wildcards: they must not take a's messages. */
  for (int i = 0; i < size; ++i) MPI_Irecv(&fromB[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, b, &requests[n++]);
  for (int i = 0; i < size; ++i) MPI_Irecv(&fromA[i], 1, MPI_INT, i, 7, a, &requests[n++]);
  for (int peer = 0; peer < size; ++peer) {
    out[2 * peer] = 1000 + rank;
    out[2 * peer + 1] = 2000 + rank;
    MPI_Isend(&out[2 * peer], 1, MPI_INT, peer, 7, a, &requests[n++]);
    MPI_Isend(&out[2 * peer + 1], 1, MPI_INT, peer, 7, b, &requests[n++]);
  }
  MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
  int seen = 0;
  for (int i = 0; i < size; ++i) {
    CHECK_EQ_INT(fromA[i], 1000 + i);
    CHECK(fromB[i] >= 2000 && fromB[i] < 2000 + size);
    if (fromB[i] >= 2000 && fromB[i] < 2000 + size) seen |= 1 << (fromB[i] - 2000); /* (a failed CHECK goes on) */
  }
  /* NOLINTNEXTLINE(clang-analyzer-core.BitwiseShift): size is MPI_Comm_size's, 1 to 8 here */
  CHECK_EQ_INT(seen, (1 << size) - 1);
  free(fromA), free(fromB), free(out), free(requests);
  /* The next call's wildcard receives must not meet this call's late messages. */
  MPI_Barrier(a);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* An attribute whose keyval copies on dup, on a communicator we dup below. */
  MPI_Comm base;
  MPI_Comm_dup(MPI_COMM_WORLD, &base);
  int keyval;
  static int payload = 42;
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, countDelete, &keyval, NULL);
  MPI_Comm_set_attr(base, keyval, &payload);

  MPI_Comm dup;
  MPI_Comm_dup(base, &dup);
  int result;
  MPI_Comm_compare(base, dup, &result);
  CHECK_EQ_INT(result, MPI_CONGRUENT);
  int* value = NULL;
  int flag = 0;
  MPI_Comm_get_attr(dup, keyval, &value, &flag);
  CHECK(flag && value == &payload);

  for (int round = 0; round < 3; ++round) allToAllTraffic(base, dup, rank, size);
  allToAllTraffic(dup, base, rank, size);
  MPI_Barrier(dup);
  MPI_Barrier(base);

  MPI_Comm idup, withInfo;
  MPI_Request request;
  MPI_Comm_idup(dup, &idup, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  CHECK(request == MPI_REQUEST_NULL);
  MPI_Info hints, used;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "mpi_assert_no_any_tag", "false");
  MPI_Comm_dup_with_info(idup, hints, &withInfo);
  MPI_Comm_set_info(withInfo, hints);
  MPI_Comm_get_info(withInfo, &used);
  MPI_Info_free(&used);
  MPI_Info_free(&hints);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  CHECK(parent == MPI_COMM_NULL);
  allToAllTraffic(idup, withInfo, rank, size);

  /* create: even world ranks, in reverse order. */
  MPI_Group world, evens;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int ranges[1][3] = {{(size - 1) / 2 * 2, 0, -2}};
  MPI_Group_range_incl(world, 1, ranges, &evens);
  MPI_Comm evenComm;
  MPI_Comm_create(MPI_COMM_WORLD, evens, &evenComm);
  if (rank % 2) {
    CHECK(evenComm == MPI_COMM_NULL);
  } else {
    int evenRank;
    MPI_Comm_rank(evenComm, &evenRank);
    CHECK_EQ_INT(evenRank, ((size - 1) / 2 * 2 - rank) / 2);
    MPI_Barrier(evenComm);
    MPI_Comm_free(&evenComm);
  }

  /* create_group: only the first half calls it; the others go on to the barrier. */
  int half = (size + 1) / 2;
  if (rank < half) {
    int range[1][3] = {{0, half - 1, 1}};
    MPI_Group first;
    MPI_Group_range_incl(world, 1, range, &first);
    MPI_Comm firstComm;
    MPI_Comm_create_group(MPI_COMM_WORLD, first, 11, &firstComm);
    int firstSize;
    MPI_Comm_size(firstComm, &firstSize);
    CHECK_EQ_INT(firstSize, half);
    allToAllTraffic(firstComm, dup, rank, half);
    MPI_Comm_free(&firstComm);
    MPI_Group_free(&first);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Group_free(&evens);
  MPI_Group_free(&world);
  MPI_Comm_disconnect(&withInfo);
  CHECK(withInfo == MPI_COMM_NULL);
  MPI_Comm_free(&idup);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&base);
  /* The attribute lived on base, dup, idup and withInfo: four deletes. */
  CHECK_EQ_INT(deletes, 4);
  MPI_Comm_free_keyval(&keyval);
  MPI_Finalize();
  return 0;
}
