/* Groups through the C API: constructors, set operations, MPI_GROUP_EMPTY results,
 * translation and comparison; and the error classes of bad communicator, group and
 * topology arguments under MPI_ERRORS_RETURN.
 */
// zmpi-test-ranks: 1 2 3 4 6
#include "check.h"

#define EXPECT_CLASS(call, expected)                                                               \
  do {                                                                                             \
    int rc_ = (call);                                                                              \
    int class_ = -1;                                                                               \
    MPI_Error_class(rc_, &class_);                                                                 \
    if (class_ != (expected)) {                                                                    \
      fprintf(stderr, "%s:%d: %s returned class %d, expected %s (%d)\n", __FILE__, __LINE__, #call, \
              class_, #expected, (expected));                                                      \
      MPI_Abort(MPI_COMM_WORLD, 3);                                                                \
    }                                                                                              \
  } while (0)

static int groupSize(MPI_Group group) {
  int n;
  MPI_Group_size(group, &n);
  return n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  CHECK_EQ_INT(groupSize(world), size);
  int groupRank;
  MPI_Group_rank(world, &groupRank);
  CHECK_EQ_INT(groupRank, rank);

  /* Reversed world, evens, odds. */
  int ranks[16];
  for (int i = 0; i < size; ++i) ranks[i] = size - 1 - i;
  MPI_Group reversed, evens, odds;
  MPI_Group_incl(world, size, ranks, &reversed);
  MPI_Group_rank(reversed, &groupRank);
  CHECK_EQ_INT(groupRank, size - 1 - rank);
  int range[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, range, &evens);
  MPI_Group_range_excl(world, 1, range, &odds);
  CHECK_EQ_INT(groupSize(evens), (size + 1) / 2);
  CHECK_EQ_INT(groupSize(odds), size / 2);
  MPI_Group_rank(evens, &groupRank);
  CHECK_EQ_INT(groupRank, rank % 2 ? MPI_UNDEFINED : rank / 2);

  int result;
  MPI_Group_compare(world, reversed, &result);
  CHECK_EQ_INT(result, size == 1 ? MPI_IDENT : MPI_SIMILAR);
  MPI_Group_compare(world, evens, &result);
  CHECK_EQ_INT(result, size == 1 ? MPI_IDENT : MPI_UNEQUAL);

  /* Set operations. */
  MPI_Group both, none, onlyEvens, fromExcl;
  MPI_Group_union(odds, evens, &both);
  MPI_Group_compare(both, world, &result);
  CHECK_EQ_INT(result, size == 1 ? MPI_IDENT : MPI_SIMILAR); /* odds come first */
  MPI_Group_intersection(evens, odds, &none);
  CHECK(none == MPI_GROUP_EMPTY);
  CHECK_EQ_INT(groupSize(MPI_GROUP_EMPTY), 0);
  MPI_Group_difference(world, odds, &onlyEvens);
  MPI_Group_compare(onlyEvens, evens, &result);
  CHECK_EQ_INT(result, MPI_IDENT);
  int oddRanks[8], n = 0;
  for (int r = 1; r < size; r += 2) oddRanks[n++] = r;
  MPI_Group_excl(world, n, oddRanks, &fromExcl);
  MPI_Group_compare(fromExcl, evens, &result);
  CHECK_EQ_INT(result, MPI_IDENT);

  /* translate: world ranks into the reversed group; MPI_PROC_NULL passes through. */
  int in[3] = {0, size - 1, MPI_PROC_NULL}, out[3];
  MPI_Group_translate_ranks(world, 3, in, reversed, out);
  CHECK_EQ_INT(out[0], size - 1);
  CHECK_EQ_INT(out[1], 0);
  CHECK_EQ_INT(out[2], MPI_PROC_NULL);
  if (size > 1) {
    int one = 1, where;
    MPI_Group_translate_ranks(world, 1, &one, evens, &where);
    CHECK_EQ_INT(where, MPI_UNDEFINED);
  }

  /* Errors come back with their classes. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Group bad = MPI_GROUP_NULL;
  int tooFar = size;
  EXPECT_CLASS(MPI_Group_incl(world, 1, &tooFar, &bad), MPI_ERR_RANK);
  int twice[2] = {0, 0};
  EXPECT_CLASS(MPI_Group_incl(world, 2, twice, &bad), MPI_ERR_RANK);
  int zeroStride[1][3] = {{0, 0, 0}};
  EXPECT_CLASS(MPI_Group_range_incl(world, 1, zeroStride, &bad), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
  EXPECT_CLASS(MPI_Group_union(world, MPI_GROUP_NULL, &bad), MPI_ERR_GROUP);
  MPI_Comm comm;
  EXPECT_CLASS(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &comm), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_dup(MPI_COMM_NULL, &comm), MPI_ERR_COMM);
  comm = MPI_COMM_WORLD;
  EXPECT_CLASS(MPI_Comm_free(&comm), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &comm), MPI_ERR_GROUP);
  EXPECT_CLASS(MPI_Comm_split(MPI_COMM_WORLD, -3, 0, &comm), MPI_ERR_ARG);
  int dims[2] = {3, 0}, periods[2] = {0, 0}, coords[2];
  EXPECT_CLASS(MPI_Dims_create(7, 2, dims), MPI_ERR_DIMS);
  EXPECT_CLASS(MPI_Cart_get(MPI_COMM_WORLD, 2, dims, periods, coords), MPI_ERR_TOPOLOGY);
  EXPECT_CLASS(MPI_Graphdims_get(MPI_COMM_WORLD, &n, &n), MPI_ERR_TOPOLOGY);
  dims[0] = size + 1;
  dims[1] = 1;
  EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &comm), MPI_ERR_ARG);
  dims[1] = 0;
  EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &comm), MPI_ERR_DIMS);
  /* Still working afterwards. */
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Group_free(&none);
  CHECK(none == MPI_GROUP_NULL);
  MPI_Group_free(&fromExcl);
  MPI_Group_free(&onlyEvens);
  MPI_Group_free(&both);
  MPI_Group_free(&odds);
  MPI_Group_free(&evens);
  MPI_Group_free(&reversed);
  MPI_Group_free(&world);
  MPI_Finalize();
  return 0;
}
