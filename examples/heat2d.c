/* heat2d: the steady temperature of a square plate whose top edge is held at 100 degrees
 * and the other edges at 0, by Jacobi iteration of the 2-D heat (Laplace) equation:
 *
 *     u(i,j) <- ( u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1) ) / 4
 *
 * The plate is split into blocks over a 2-D Cartesian grid of ranks (MPI_Dims_create,
 * MPI_Cart_create). Each rank keeps one ghost row/column around its block; before every
 * sweep it exchanges its edges with its four neighbours (MPI_Cart_shift, MPI_Sendrecv;
 * a column is an MPI_Type_vector). Every few sweeps MPI_Allreduce finds the largest
 * change anywhere, and the iteration stops once it is below the tolerance.
 * The answer does not depend on the number of ranks: try 1 and 4.
 *
 *   zmpirun -np 4 build/bin/heat2d [n] [tolerance]     (n x n points, default 64, 1e-4)
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxSweeps = 100000, kCheckEvery = 10 };
static const double kHotEdge = 100.0;

/* The block of `n` points that coordinate `coord` of `parts` gets (the first n % parts
 * blocks have one point more). */
static void split(int n, int parts, int coord, int* count, int* first) {
  const int base = n / parts, extra = n % parts;
  *count = base + (coord < extra ? 1 : 0);
  *first = coord * base + (coord < extra ? coord : extra);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 64;
  const double tolerance = argc > 2 ? atof(argv[2]) : 1e-4;

  /* A grid of ranks as square as possible, e.g. 4 -> 2 x 2, 6 -> 3 x 2. */
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const int periodic[2] = {0, 0}; /* a plate, not a torus: edge ranks have no neighbour */
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periodic, 1, &grid);
  int rank, coords[2];
  MPI_Comm_rank(grid, &rank);
  MPI_Cart_coords(grid, rank, 2, coords);
  /* Neighbours; MPI_PROC_NULL beyond the plate's edge, which makes a transfer a no-op. */
  int up, down, left, right;
  MPI_Cart_shift(grid, 0, 1, &up, &down);
  MPI_Cart_shift(grid, 1, 1, &left, &right);

  int rows, cols, firstRow, firstCol;
  split(n, dims[0], coords[0], &rows, &firstRow);
  split(n, dims[1], coords[1], &cols, &firstCol);
  if (rank == 0) printf("%d x %d plate on a %d x %d grid of ranks\n", n, n, dims[0], dims[1]);

  /* The block plus a ghost frame; u[i][j] is u[i * stride + j], interior 1..rows, 1..cols. */
  const int stride = cols + 2;
  const size_t points = (size_t)(rows + 2) * (size_t)stride;
  double* u = calloc(points, sizeof *u);
  double* next = calloc(points, sizeof *next);
  if (!u || !next) {
    free(u);
    free(next);
    MPI_Abort(MPI_COMM_WORLD, 2);
    return 2; /* not reached */
  }
#define AT(a, i, j) (a)[(size_t)(i) * (size_t)stride + (size_t)(j)]
  /* The plate's top edge lives in the ghost row of the top ranks; no exchange overwrites
   * it, because their `up` is MPI_PROC_NULL. */
  if (up == MPI_PROC_NULL) {
    for (int j = 0; j < stride; ++j) AT(u, 0, j) = AT(next, 0, j) = kHotEdge;
  }

  /* A column of the block: `rows` doubles, one every `stride`. */
  MPI_Datatype column;
  MPI_Type_vector(rows, 1, stride, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);

  const double start = MPI_Wtime();
  double change = 0.0;
  int sweep;
  for (sweep = 1; sweep <= kMaxSweeps; ++sweep) {
    /* Halo exchange: send an edge one way while receiving the ghost from the other, so
     * every pair of neighbours is matched and no rank waits on one that is sending. */
    MPI_Sendrecv(&AT(u, 1, 1), cols, MPI_DOUBLE, up, 0, &AT(u, rows + 1, 1), cols, MPI_DOUBLE, down, 0, grid,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, rows, 1), cols, MPI_DOUBLE, down, 1, &AT(u, 0, 1), cols, MPI_DOUBLE, up, 1, grid,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, 1, 1), 1, column, left, 2, &AT(u, 1, cols + 1), 1, column, right, 2, grid, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, 1, cols), 1, column, right, 3, &AT(u, 1, 0), 1, column, left, 3, grid, MPI_STATUS_IGNORE);

    double localChange = 0.0;
    for (int i = 1; i <= rows; ++i) {
      for (int j = 1; j <= cols; ++j) {
        AT(next, i, j) = 0.25 * (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1));
        localChange = fmax(localChange, fabs(AT(next, i, j) - AT(u, i, j)));
      }
    }
    double* swap = u;
    u = next;
    next = swap;

    /* The largest change on the whole plate decides for everyone, so all ranks stop at
     * the same sweep. Checking every few sweeps keeps the collective off the hot path. */
    if (sweep % kCheckEvery == 0) {
      MPI_Allreduce(&localChange, &change, 1, MPI_DOUBLE, MPI_MAX, grid);
      if (rank == 0 && sweep % 1000 == 0) printf("sweep %6d  largest change %.3e\n", sweep, change);
      if (change < tolerance) break;
    }
  }

  /* Summaries independent of the decomposition: mean temperature and the centre point. */
  double localSum = 0.0, centre = 0.0;
  for (int i = 1; i <= rows; ++i) {
    for (int j = 1; j <= cols; ++j) {
      localSum += AT(u, i, j);
      if (firstRow + i - 1 == n / 2 && firstCol + j - 1 == n / 2) centre = AT(u, i, j);
    }
  }
  double sum = 0.0, centreEverywhere = 0.0;
  MPI_Reduce(&localSum, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, grid);
  MPI_Reduce(&centre, &centreEverywhere, 1, MPI_DOUBLE, MPI_SUM, 0, grid); /* one rank holds it */
  if (rank == 0) {
    if (sweep > kMaxSweeps) {
      printf("stopped after %d sweeps without converging (largest change %.3e)\n", kMaxSweeps, change);
    } else {
      printf("converged after %d sweeps (largest change %.3e < %.1e) in %.3f s\n", sweep, change, tolerance,
             MPI_Wtime() - start);
    }
    printf("mean temperature %.4f, centre %.4f\n", sum / ((double)n * n), centreEverywhere);
  }
#undef AT
  MPI_Type_free(&column);
  MPI_Comm_free(&grid);
  free(u);
  free(next);
  MPI_Finalize();
  return 0;
}
