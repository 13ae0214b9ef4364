/* Derived datatypes point to point: rank 0 sends each other rank one column of a matrix
 * (a vector type), a subarray block and several resized columns at once; receivers take
 * them both into contiguous buffers and into matching derived types, and check counts.
 */
// zmpi-test-ranks: 2 4
#include <string.h>

#include "check.h"

#define N 8

static void fill(int m[N][N]) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) m[i][j] = 100 * i + j;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Datatype column, oneColumn, block;
  MPI_Type_vector(N, 1, N, MPI_INT, &column);
  MPI_Type_commit(&column);
  /* Resized to one int, so consecutive columns are count > 1 of it. */
  MPI_Type_create_resized(column, 0, sizeof(int), &oneColumn);
  MPI_Type_commit(&oneColumn);
  int sizes[2] = {N, N}, subsizes[2] = {2, 3}, starts[2] = {4, 5};
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &block);
  MPI_Type_commit(&block);

  int sz;
  MPI_Aint lb, extent;
  MPI_Type_size(column, &sz);
  CHECK_EQ_INT(sz, N * (int)sizeof(int));
  MPI_Type_get_extent(column, &lb, &extent);
  CHECK_EQ_INT(lb, 0);
  CHECK_EQ_INT(extent, ((N - 1) * N + 1) * (int)sizeof(int));
  MPI_Type_get_extent(oneColumn, &lb, &extent);
  CHECK_EQ_INT(extent, sizeof(int));
  MPI_Type_get_extent(block, &lb, &extent);
  CHECK_EQ_INT(extent, N * N * (int)sizeof(int));

  int m[N][N];
  if (rank == 0) {
    fill(m);
    for (int peer = 1; peer < size; ++peer) {
      int col = peer % N;
      MPI_Send(&m[0][col], 1, column, peer, 1, MPI_COMM_WORLD);
      MPI_Send(&m[0][col], 1, column, peer, 2, MPI_COMM_WORLD);
      MPI_Send(m, 1, block, peer, 3, MPI_COMM_WORLD);
      MPI_Send(&m[0][1], 3, oneColumn, peer, 4, MPI_COMM_WORLD);
    }
  } else {
    int col = rank % N, flat[N], other[N][N];
    MPI_Status status;
    /* A column into contiguous ints. */
    MPI_Recv(flat, N, MPI_INT, 0, 1, MPI_COMM_WORLD, &status);
    for (int i = 0; i < N; ++i) CHECK_EQ_INT(flat[i], 100 * i + col);
    /* A column into the same column of another matrix; the rest stays untouched. */
    memset(other, 0xff, sizeof other);
    MPI_Recv(&other[0][col], 1, column, 0, 2, MPI_COMM_WORLD, &status);
    int count, elements;
    MPI_Get_count(&status, column, &count);
    CHECK_EQ_INT(count, 1);
    MPI_Get_elements(&status, column, &elements);
    CHECK_EQ_INT(elements, N);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) CHECK_EQ_INT(other[i][j], j == col ? 100 * i + col : -1);
    /* The subarray block, row by row. */
    int got[6];
    MPI_Recv(got, 6, MPI_INT, 0, 3, MPI_COMM_WORLD, &status);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) CHECK_EQ_INT(got[3 * i + j], 100 * (4 + i) + 5 + j);
    /* Three columns 1..3, received as three columns of the same kind. */
    memset(other, 0, sizeof other);
    MPI_Recv(&other[0][1], 3, oneColumn, 0, 4, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, oneColumn, &count);
    CHECK_EQ_INT(count, 3);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) CHECK_EQ_INT(other[i][j], (j >= 1 && j <= 3) ? 100 * i + j : 0);
  }

  /* A short message into a column: only the first elements change, count is undefined. */
  if (size >= 2) {
    if (rank == 0) {
      int three[3] = {7, 8, 9};
      MPI_Send(three, 3, MPI_INT, 1, 5, MPI_COMM_WORLD);
    } else if (rank == 1) {
      int other[N][N];
      MPI_Status status;
      memset(other, 0, sizeof other);
      MPI_Recv(&other[0][2], 1, column, 0, 5, MPI_COMM_WORLD, &status);
      CHECK_EQ_INT(other[0][2], 7);
      CHECK_EQ_INT(other[1][2], 8);
      CHECK_EQ_INT(other[2][2], 9);
      CHECK_EQ_INT(other[3][2], 0);
      int count, elements;
      MPI_Get_count(&status, column, &count);
      CHECK_EQ_INT(count, MPI_UNDEFINED);
      MPI_Get_elements(&status, column, &elements);
      CHECK_EQ_INT(elements, 3);
    }
  }

  MPI_Type_free(&block);
  MPI_Type_free(&oneColumn);
  MPI_Type_free(&column);
  CHECK(column == MPI_DATATYPE_NULL);
  MPI_Finalize();
  return 0;
}
