/* A 2-D periodic Cartesian grid from MPI_Dims_create: coordinates, a Cart_shift halo
 * exchange in both dimensions, Cart_sub rows and columns, neighbor collectives on the
 * grid, and a non-periodic grid whose open edges are MPI_PROC_NULL.
 */
// zmpi-test-ranks: 1 2 3 4 6
#include "check.h"

/* The rank at (row, col) of a periodic rows x cols grid, row-major. */
static int at(int row, int col, const int dims[2]) {
  row = (row % dims[0] + dims[0]) % dims[0];
  col = (col % dims[1] + dims[1]) % dims[1];
  return row * dims[1] + col;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  CHECK_EQ_INT(dims[0] * dims[1], size);
  CHECK(dims[0] >= dims[1]);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &grid);
  int status, ndims, me;
  MPI_Topo_test(grid, &status);
  CHECK_EQ_INT(status, MPI_CART);
  MPI_Cartdim_get(grid, &ndims);
  CHECK_EQ_INT(ndims, 2);
  MPI_Comm_rank(grid, &me);

  int gotDims[2], gotPeriods[2], coords[2];
  MPI_Cart_get(grid, 2, gotDims, gotPeriods, coords);
  CHECK_EQ_INT(gotDims[0], dims[0]);
  CHECK_EQ_INT(gotDims[1], dims[1]);
  CHECK(gotPeriods[0] && gotPeriods[1]);
  CHECK_EQ_INT(me, at(coords[0], coords[1], dims));
  int back;
  MPI_Cart_rank(grid, coords, &back);
  CHECK_EQ_INT(back, me);
  int wrapped[2] = {coords[0] + dims[0], coords[1] - dims[1]};
  MPI_Cart_rank(grid, wrapped, &back);
  CHECK_EQ_INT(back, me);
  int c2[2];
  MPI_Cart_coords(grid, me, 2, c2);
  CHECK(c2[0] == coords[0] && c2[1] == coords[1]);

  /* Halo exchange: send my rank up/down/left/right, receive the opposite neighbor's. */
  for (int dim = 0; dim < 2; ++dim) {
    for (int disp = -1; disp <= 1; disp += 2) {
      int source, dest, got = -1;
      MPI_Cart_shift(grid, dim, disp, &source, &dest);
      int expectDest = dim == 0 ? at(coords[0] + disp, coords[1], dims) : at(coords[0], coords[1] + disp, dims);
      int expectSource = dim == 0 ? at(coords[0] - disp, coords[1], dims) : at(coords[0], coords[1] - disp, dims);
      CHECK_EQ_INT(dest, expectDest);
      CHECK_EQ_INT(source, expectSource);
      MPI_Sendrecv(&me, 1, MPI_INT, dest, 10 + dim, &got, 1, MPI_INT, source, 10 + dim, grid, MPI_STATUS_IGNORE);
      CHECK_EQ_INT(got, expectSource);
    }
  }

  /* Rows keep dimension 1, columns dimension 0. */
  MPI_Comm row, column;
  int keepCols[2] = {0, 1}, keepRows[2] = {1, 0};
  MPI_Cart_sub(grid, keepCols, &row);
  MPI_Cart_sub(grid, keepRows, &column);
  int rowSize, rowRank, colSize, colRank;
  MPI_Comm_size(row, &rowSize);
  MPI_Comm_rank(row, &rowRank);
  MPI_Comm_size(column, &colSize);
  MPI_Comm_rank(column, &colRank);
  CHECK_EQ_INT(rowSize, dims[1]);
  CHECK_EQ_INT(rowRank, coords[1]);
  CHECK_EQ_INT(colSize, dims[0]);
  CHECK_EQ_INT(colRank, coords[0]);
  MPI_Cartdim_get(row, &ndims);
  CHECK_EQ_INT(ndims, 1);
  /* Along the row, the left neighbor's grid rank is one column back. */
  int left, right, got = -1;
  MPI_Cart_shift(row, 0, 1, &left, &right);
  MPI_Sendrecv(&me, 1, MPI_INT, right, 0, &got, 1, MPI_INT, left, 0, row, MPI_STATUS_IGNORE);
  CHECK_EQ_INT(got, at(coords[0], coords[1] - 1, dims));
  MPI_Cart_shift(column, 0, 1, &left, &right);
  MPI_Sendrecv(&me, 1, MPI_INT, right, 0, &got, 1, MPI_INT, left, 0, column, MPI_STATUS_IGNORE);
  CHECK_EQ_INT(got, at(coords[0] - 1, coords[1], dims));

  /* Neighbor collectives: slots are [up, down, left, right]; the block a neighbor sent
   * towards me lands in the slot facing it, even when up == down (extent 1 or 2). */
  int send[4], recv[4] = {-1, -1, -1, -1}, gathered[4] = {-1, -1, -1, -1};
  for (int j = 0; j < 4; ++j) send[j] = 10 * me + j;
  MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, grid);
  CHECK_EQ_INT(recv[0], 10 * at(coords[0] - 1, coords[1], dims) + 1);
  CHECK_EQ_INT(recv[1], 10 * at(coords[0] + 1, coords[1], dims) + 0);
  CHECK_EQ_INT(recv[2], 10 * at(coords[0], coords[1] - 1, dims) + 3);
  CHECK_EQ_INT(recv[3], 10 * at(coords[0], coords[1] + 1, dims) + 2);
  MPI_Neighbor_allgather(&me, 1, MPI_INT, gathered, 1, MPI_INT, grid);
  CHECK_EQ_INT(gathered[0], at(coords[0] - 1, coords[1], dims));
  CHECK_EQ_INT(gathered[3], at(coords[0], coords[1] + 1, dims));
  MPI_Request request;
  MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, grid, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  CHECK_EQ_INT(recv[2], 10 * at(coords[0], coords[1] - 1, dims) + 3);

  /* Open edges: on a 1-D non-periodic line, the ends see MPI_PROC_NULL and their slots
   * stay untouched. */
  MPI_Comm line;
  int lineDims[1] = {size}, open[1] = {0};
  MPI_Cart_create(MPI_COMM_WORLD, 1, lineDims, open, 0, &line);
  int prev, next;
  MPI_Cart_shift(line, 0, 1, &prev, &next);
  CHECK_EQ_INT(prev, rank == 0 ? MPI_PROC_NULL : rank - 1);
  CHECK_EQ_INT(next, rank == size - 1 ? MPI_PROC_NULL : rank + 1);
  int ends[2] = {-7, -7};
  MPI_Neighbor_allgather(&rank, 1, MPI_INT, ends, 1, MPI_INT, line);
  CHECK_EQ_INT(ends[0], rank == 0 ? -7 : rank - 1);
  CHECK_EQ_INT(ends[1], rank == size - 1 ? -7 : rank + 1);

  /* A grid smaller than the world: the ranks beyond it get MPI_COMM_NULL. */
  MPI_Comm small;
  int smallDims[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, smallDims, open, 0, &small);
  CHECK((small == MPI_COMM_NULL) == (rank > 0));
  int newrank;
  MPI_Cart_map(MPI_COMM_WORLD, 1, smallDims, open, &newrank);
  CHECK_EQ_INT(newrank, rank == 0 ? 0 : MPI_UNDEFINED);
  if (small != MPI_COMM_NULL) MPI_Comm_free(&small);

  /* A dup keeps the topology. */
  MPI_Comm copy;
  MPI_Comm_dup(grid, &copy);
  MPI_Topo_test(copy, &status);
  CHECK_EQ_INT(status, MPI_CART);

  MPI_Comm_free(&copy);
  MPI_Comm_free(&line);
  MPI_Comm_free(&row);
  MPI_Comm_free(&column);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
