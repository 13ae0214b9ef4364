/* MPI_Comm_split by parity with the keys reversed, MPI_UNDEFINED colors, split_type,
 * names, comparison, and traffic on the new communicators (which must reach exactly the
 * expected world ranks).
 */
// zmpi-test-ranks: 1 2 3 4 6
#include <string.h>

#include "check.h"

/* Number of ranks of the given parity in a world of `size`. */
static int countParity(int size, int parity) { return (size - parity + 1) / 2; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* Parity split, keys reversed: sub-rank 0 is the highest world rank of the parity. */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
  int halfRank, halfSize;
  MPI_Comm_rank(half, &halfRank);
  MPI_Comm_size(half, &halfSize);
  CHECK_EQ_INT(halfSize, countParity(size, rank % 2));
  int highest = (size - 1) % 2 == rank % 2 ? size - 1 : size - 2; /* highest world rank of my parity */
  CHECK_EQ_INT(halfRank, (highest - rank) / 2);

  /* The group says the same, through translate_ranks. */
  MPI_Group worldGroup, halfGroup;
  MPI_Comm_group(MPI_COMM_WORLD, &worldGroup);
  MPI_Comm_group(half, &halfGroup);
  int subRanks[8], worldRanks[8];
  for (int i = 0; i < halfSize; ++i) subRanks[i] = i;
  MPI_Group_translate_ranks(halfGroup, halfSize, subRanks, worldGroup, worldRanks);
  for (int i = 0; i < halfSize; ++i) CHECK_EQ_INT(worldRanks[i], highest - 2 * i);

  /* A ring on the half: the message from the left must come from the expected world rank. */
  int right = (halfRank + 1) % halfSize, left = (halfRank + halfSize - 1) % halfSize;
  int mine = rank, got = -1;
  MPI_Status status;
  MPI_Sendrecv(&mine, 1, MPI_INT, right, 3, &got, 1, MPI_INT, left, 3, half, &status);
  CHECK_EQ_INT(got, highest - 2 * left);
  CHECK_EQ_INT(status.MPI_SOURCE, left);

  int result;
  MPI_Comm_compare(MPI_COMM_WORLD, half, &result);
  CHECK_EQ_INT(result, size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL);
  MPI_Comm_compare(half, half, &result);
  CHECK_EQ_INT(result, MPI_IDENT);

  /* Names: new communicators have none until given one. */
  char name[MPI_MAX_OBJECT_NAME];
  int length;
  MPI_Comm_get_name(half, name, &length);
  CHECK_EQ_INT(length, 0);
  MPI_Comm_set_name(half, rank % 2 ? "odds" : "evens");
  MPI_Comm_get_name(half, name, &length);
  CHECK(strcmp(name, rank % 2 ? "odds" : "evens") == 0);
  CHECK_EQ_INT(length, (int)strlen(name));
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &length);
  CHECK(strcmp(name, "MPI_COMM_WORLD") == 0);

  int flag = 1;
  MPI_Comm_test_inter(half, &flag);
  CHECK_EQ_INT(flag, 0);
  MPI_Topo_test(half, &flag);
  CHECK_EQ_INT(flag, MPI_UNDEFINED);

  /* MPI_UNDEFINED: rank 0 takes part in the call but gets no communicator. */
  MPI_Comm rest;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, 0, &rest);
  if (rank == 0) {
    CHECK(rest == MPI_COMM_NULL);
  } else {
    int restSize;
    MPI_Comm_size(rest, &restSize);
    CHECK_EQ_INT(restSize, size - 1);
    MPI_Comm_free(&rest);
    CHECK(rest == MPI_COMM_NULL);
  }

  /* One host: split_type shared keeps everyone, ordered by key. */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_compare(MPI_COMM_WORLD, node, &result);
  CHECK_EQ_INT(result, MPI_CONGRUENT);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, &rest);
  CHECK(rest == MPI_COMM_NULL);

  /* Splitting a split: quarters of the halves, by position. */
  MPI_Comm quarter;
  MPI_Comm_split(half, halfRank % 2, halfRank, &quarter);
  int quarterSize;
  MPI_Comm_size(quarter, &quarterSize);
  CHECK_EQ_INT(quarterSize, countParity(halfSize, halfRank % 2));
  MPI_Barrier(quarter);

  MPI_Group_free(&halfGroup);
  MPI_Group_free(&worldGroup);
  MPI_Comm_free(&quarter);
  MPI_Comm_free(&node);
  MPI_Comm_free(&half);
  CHECK(half == MPI_COMM_NULL);
  MPI_Finalize();
  return 0;
}
