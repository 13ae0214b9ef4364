/* pi: computes pi as the integral of 4 / (1 + x^2) over [0, 1] with the midpoint rule.
 * Rank 0 broadcasts the number of intervals; each rank sums every size-th interval; one
 * MPI_Reduce adds the partial sums on rank 0.
 *
 *   zmpirun -np 4 build/bin/pi [intervals]     (default 100000000)
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const double kPi = 3.141592653589793238462643;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long long intervals = 100000000;
  if (rank == 0 && argc > 1) intervals = atoll(argv[1]);
  /* Only rank 0 read the arguments; everyone needs the same count. */
  MPI_Bcast(&intervals, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);

  const double start = MPI_Wtime();
  const double width = 1.0 / (double)intervals;
  double partial = 0.0;
  /* Interleaved intervals (rank, rank+size, ...) keep the work even for any size. */
  for (long long i = rank; i < intervals; i += size) {
    const double x = width * ((double)i + 0.5);
    partial += 4.0 / (1.0 + x * x);
  }
  partial *= width;

  double pi = 0.0;
  MPI_Reduce(&partial, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - start;

  if (rank == 0) {
    printf("pi is approximately %.16f, error %.3e\n", pi, fabs(pi - kPi));
    printf("%lld intervals on %d ranks in %.3f s\n", intervals, size, seconds);
  }
  MPI_Finalize();
  return 0;
}
