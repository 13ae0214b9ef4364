/* Reductions against locally computed references: Reduce (every root, MPI_IN_PLACE),
 * Allreduce (predefined ops, MAXLOC, a non-commutative user op kept in rank order,
 * floating-point sums bit-identical on every rank, a derived type with gaps),
 * Reduce_scatter(_block), Scan and Exscan. */
// zmpi-test-ranks: 1 2 3 4 5
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* 2x2 matrices of unsigned ints (wrapping), multiplied: associative, not commutative. */
static void matmul(void* in, void* inout, int* len, MPI_Datatype* type) {
  unsigned* a = in;
  unsigned* b = inout;
  for (int k = 0; k < *len; ++k, a += 4, b += 4) {
    unsigned c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                a[2] * b[1] + a[3] * b[3]};
    memcpy(b, c, sizeof c);
  }
}

static void matrix_of(int rank, int element, unsigned* m) {
  m[0] = 1 + rank % 3;
  m[1] = element + 1;
  m[2] = (unsigned)(rank - element);
  m[3] = 1;
}

/* x_first * ... * x_last for one element. */
static void product(int first, int last, int element, unsigned* out) {
  matrix_of(first, element, out);
  for (int r = first + 1; r <= last; ++r) {
    unsigned m[4];
    int len = 1;
    matrix_of(r, element, m);
    /* out = out * m: matmul computes inout = in * inout. */
    matmul(out, m, &len, NULL);
    memcpy(out, m, sizeof m);
  }
}

static MPI_Datatype mat_type;
static MPI_Op mat_op;

static void check_matrices(const unsigned* got, int first, int last, int count) {
  for (int e = 0; e < count; ++e) {
    unsigned want[4];
    product(first, last, e, want);
    for (int k = 0; k < 4; ++k) CHECK_EQ_INT(got[4 * e + k], want[k]);
  }
}

static void test_allreduce(int rank, int size) {
  const int counts[] = {0, 1, 10, 40000};
  for (int c = 0; c < 4; ++c) {
    const int n = counts[c];
    for (int in_place = 0; in_place < 2; ++in_place) {
      int *in = malloc(sizeof(int) * (n + 1)), *out = malloc(sizeof(int) * (n + 1));
      for (int i = 0; i < n; ++i) out[i] = in[i] = rank * 3 + i;
      MPI_Allreduce(in_place ? MPI_IN_PLACE : in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      for (int i = 0; i < n; ++i) CHECK_EQ_INT(out[i], 3 * size * (size - 1) / 2 + size * i);
      free(in);
      free(out);
    }
  }
  double mx = rank == size / 2 ? 1e300 : -rank, gmx = 0;
  MPI_Allreduce(&mx, &gmx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  CHECK(gmx == 1e300);
  struct {
    double v;
    int i;
  } loc = {(double)((rank * 7) % size), rank}, gloc;
  MPI_Allreduce(&loc, &gloc, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  int best = 0;
  for (int r = 0; r < size; ++r)
    if ((r * 7) % size > (best * 7) % size) best = r;
  CHECK_EQ_INT(gloc.i, best);

  /* Non-commutative user op: rank order, small and large (Rabenseifner's range). */
  for (int n = 1; n <= 5000; n *= 50) {
    unsigned* in = malloc(sizeof(unsigned) * 4 * n);
    unsigned* out = malloc(sizeof(unsigned) * 4 * n);
    for (int e = 0; e < n; ++e) matrix_of(rank, e, in + 4 * e);
    MPI_Allreduce(in, out, n, mat_type, mat_op, MPI_COMM_WORLD);
    check_matrices(out, 0, size - 1, n);
    free(in);
    free(out);
  }

  /* Floating-point sums whose rounding depends on the order: every rank gets rank 0's bits. */
  for (int n = 7; n <= 70000; n *= 100) {
    double* in = malloc(sizeof(double) * n);
    double* out = malloc(sizeof(double) * n);
    double* ref = malloc(sizeof(double) * n);
    for (int i = 0; i < n; ++i) in[i] = ldexp(1.0 + 0.1 * rank + 1e-3 * i, (rank * 17 + i) % 60 - 30);
    MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    memcpy(ref, out, sizeof(double) * n);
    MPI_Bcast(ref, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    CHECK(memcmp(ref, out, sizeof(double) * n) == 0);
    free(in);
    free(out);
    free(ref);
  }

  /* A vector type with gaps: 3 ints, stride 2. Gaps hold -9 and must stay so. */
  MPI_Datatype strided;
  MPI_Type_vector(3, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  int sv[5], rv[5];
  for (int i = 0; i < 5; ++i) {
    sv[i] = i % 2 ? -5 : rank + i;
    rv[i] = -9;
  }
  MPI_Allreduce(sv, rv, 1, strided, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < 5; ++i) CHECK_EQ_INT(rv[i], i % 2 ? -9 : size * (size - 1) / 2 + size * i);
  MPI_Type_free(&strided);
}

static void test_reduce(int rank, int size) {
  for (int root = 0; root < size; ++root) {
    for (int in_place = 0; in_place < 2; ++in_place) {
      const int here = in_place && rank == root;
      int in[3], out[3] = {-1, -1, -1};
      for (int i = 0; i < 3; ++i) in[i] = rank + i;
      if (here) memcpy(out, in, sizeof in);
      MPI_Reduce(here ? MPI_IN_PLACE : in, out, 3, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
      for (int i = 0; i < 3; ++i) CHECK_EQ_INT(out[i], rank == root ? size * (size - 1) / 2 + size * i : -1);
      unsigned min[8], mout[8];
      for (int e = 0; e < 2; ++e) matrix_of(rank, e, min + 4 * e);
      if (here) memcpy(mout, min, sizeof min);
      MPI_Reduce(here ? MPI_IN_PLACE : min, mout, 2, mat_type, mat_op, root, MPI_COMM_WORLD);
      if (rank == root) check_matrices(mout, 0, size - 1, 2);
    }
  }
}

static void test_reduce_scatter(int rank, int size) {
  int *counts = malloc(sizeof(int) * size), total = 0, first = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = (r + 1) % 3;
    if (r < rank) first += counts[r];
    total += counts[r];
  }
  for (int in_place = 0; in_place < 2; ++in_place) {
    int *in = malloc(sizeof(int) * (total + 1)), *out = malloc(sizeof(int) * (total + 1));
    for (int i = 0; i < total; ++i) out[i] = in[i] = rank + i;
    MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < counts[rank]; ++i) CHECK_EQ_INT(out[i], size * (size - 1) / 2 + size * (first + i));
    unsigned *min = malloc(sizeof(unsigned) * (4 * total + 1)), *mout = malloc(sizeof(unsigned) * (4 * total + 1));
    for (int e = 0; e < total; ++e) matrix_of(rank, e, min + 4 * e);
    memcpy(mout, min, sizeof(unsigned) * 4 * total);
    MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : min, mout, counts, mat_type, mat_op, MPI_COMM_WORLD);
    for (int e = 0; e < counts[rank]; ++e) {
      unsigned want[4];
      product(0, size - 1, first + e, want);
      for (int k = 0; k < 4; ++k) CHECK_EQ_INT(mout[4 * e + k], want[k]);
    }
    free(min);
    free(mout);
    free(in);
    free(out);
  }
  int* bin = malloc(sizeof(int) * 2 * size);
  int bout[2];
  for (int i = 0; i < 2 * size; ++i) bin[i] = rank * i;
  MPI_Reduce_scatter_block(bin, bout, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < 2; ++i) CHECK_EQ_INT(bout[i], size * (size - 1) / 2 * (2 * rank + i));
  free(bin);
  free(counts);
}

static void test_scan(int rank, int size) {
  for (int in_place = 0; in_place < 2; ++in_place) {
    unsigned in[12], out[12];
    for (int e = 0; e < 3; ++e) matrix_of(rank, e, in + 4 * e);
    memcpy(out, in, sizeof in);
    MPI_Scan(in_place ? MPI_IN_PLACE : in, out, 3, mat_type, mat_op, MPI_COMM_WORLD);
    check_matrices(out, 0, rank, 3);
    memcpy(out, in, sizeof in);
    MPI_Exscan(in_place ? MPI_IN_PLACE : in, out, 3, mat_type, mat_op, MPI_COMM_WORLD);
    if (rank > 0) check_matrices(out, 0, rank - 1, 3);
    int s = rank + 1, ps = 0;
    MPI_Scan(&s, &ps, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK_EQ_INT(ps, (rank + 1) * (rank + 2) / 2);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Type_contiguous(4, MPI_UNSIGNED, &mat_type);
  MPI_Type_commit(&mat_type);
  MPI_Op_create(matmul, 0, &mat_op);
  test_allreduce(rank, size);
  test_reduce(rank, size);
  test_reduce_scatter(rank, size);
  test_scan(rank, size);
  MPI_Op_free(&mat_op);
  MPI_Type_free(&mat_type);
  MPI_Finalize();
  return 0;
}
