/* Bcast, Allgather and Alltoall where ranks describe the same data with different
 * datatypes (same type signature): even ranks use plain MPI_INT arrays, odd ranks a
 * strided vector type. Small calls run directly (coll/direct.h, packing the strided type),
 * larger ones their plan, and in between an alltoall whose strided blocks need more
 * scratch than a direct call takes runs the plan on odd ranks while even ranks go direct:
 * both forms must send identical messages. Sizes straddle the limits (1 KiB for bcast,
 * 64 KiB a message otherwise). Every result is checked against a local reference, and the
 * gap ints of the strided layout must stay untouched. */
// zmpi-test-ranks: 2 3 4 5
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const int kGap = -77;

/* Per rank: n ints either back to back (even ranks) or every other int (odd ranks). */
typedef struct {
  int strided;
  MPI_Datatype type; /* n ints in this rank's layout, one element */
  int extent_ints;   /* ints one element spans */
} Layout;

static Layout layout_of(int rank, int n) {
  Layout l;
  l.strided = rank % 2;
  if (!l.strided) {
    MPI_Type_contiguous(n, MPI_INT, &l.type);
    l.extent_ints = n;
  } else {
    MPI_Datatype v;
    MPI_Type_vector(n, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, (MPI_Aint)(2 * n * sizeof(int)), &l.type);
    MPI_Type_free(&v);
    l.extent_ints = 2 * n;
  }
  MPI_Type_commit(&l.type);
  return l;
}

static int* at(const Layout* l, int* base, int element, int i) {
  return base + element * l->extent_ints + (l->strided ? 2 * i : i);
}

/* A buffer of `elements` elements in this layout, gaps set to kGap, data to -1. */
static int* buffer(const Layout* l, int elements) {
  int* b = malloc(sizeof(int) * (size_t)(l->extent_ints * elements + 1));
  for (int i = 0; i < l->extent_ints * elements; ++i) b[i] = kGap;
  for (int e = 0; e < elements; ++e)
    for (int i = 0; i < l->extent_ints / (l->strided ? 2 : 1); ++i) *at(l, b, e, i) = -1;
  return b;
}

static void check_gaps(const Layout* l, const int* b, int elements) {
  if (!l->strided) return;
  for (int i = 1; i < l->extent_ints * elements; i += 2) CHECK_EQ_INT(b[i], kGap);
}

static int value(int from, int to, int i) { return from * 100000 + to * 1000 + i % 1000; }

static void test_bcast(int rank, int size, int n) {
  Layout l = layout_of(rank, n);
  for (int root = 0; root < size; ++root) {
    int* b = buffer(&l, 1);
    if (rank == root)
      for (int i = 0; i < n; ++i) *at(&l, b, 0, i) = value(root, 0, i);
    MPI_Bcast(b, 1, l.type, root, MPI_COMM_WORLD);
    for (int i = 0; i < n; ++i) CHECK_EQ_INT(*at(&l, b, 0, i), value(root, 0, i));
    check_gaps(&l, b, 1);
    free(b);
  }
  MPI_Type_free(&l.type);
}

static void test_allgather(int rank, int size, int n) {
  Layout l = layout_of(rank, n);
  for (int in_place = 0; in_place < 2; ++in_place) {
    int* mine = buffer(&l, 1);
    int* all = buffer(&l, size);
    for (int i = 0; i < n; ++i) *at(&l, mine, 0, i) = value(rank, 0, i);
    if (in_place)
      for (int i = 0; i < n; ++i) *at(&l, all, rank, i) = value(rank, 0, i);
    MPI_Allgather(in_place ? MPI_IN_PLACE : mine, 1, l.type, all, 1, l.type, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < n; ++i) CHECK_EQ_INT(*at(&l, all, r, i), value(r, 0, i));
    check_gaps(&l, all, size);
    free(mine);
    free(all);
  }
  MPI_Type_free(&l.type);
}

static void test_alltoall(int rank, int size, int n) {
  Layout l = layout_of(rank, n);
  int* out = buffer(&l, size);
  int* in = buffer(&l, size);
  for (int to = 0; to < size; ++to)
    for (int i = 0; i < n; ++i) *at(&l, out, to, i) = value(rank, to, i);
  MPI_Alltoall(out, 1, l.type, in, 1, l.type, MPI_COMM_WORLD);
  for (int from = 0; from < size; ++from)
    for (int i = 0; i < n; ++i) CHECK_EQ_INT(*at(&l, in, from, i), value(from, rank, i));
  check_gaps(&l, in, size);
  free(out);
  free(in);
  MPI_Type_free(&l.type);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* 4 B to 128 KiB per block: direct and plan sizes alike. */
  const int counts[] = {1, 3, 64, 256, 257, 1000, 2048, 8192, 32768};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
    test_bcast(rank, size, counts[c]);
    test_allgather(rank, size, counts[c]);
    test_alltoall(rank, size, counts[c]);
  }
  MPI_Finalize();
  return 0;
}
