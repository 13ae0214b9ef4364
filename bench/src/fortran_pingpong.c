/* The cost of zmpi's Fortran bindings: an 8 B ping-pong between ranks 0 and 1 through the
 * Fortran entry points (mpi_send_ / mpi_recv_ of libmpi_mpifh.so.40, called as gfortran
 * calls them: every argument by reference, handles as Fortran indices) and through the C
 * API, in alternating batches of one process, so both meet the same machine. Prints the
 * median one-way latency of each, the ratio of the medians, and the median of the ratios
 * of neighbouring batches (steadier on a loaded machine, whose speed drifts between batches):
 *   "fortran_us C_us ratio pair_ratio" after a "# ..." header.
 * Build: zmpicc fortran_pingpong.c -lmpi_mpifh; run: zmpirun -np 2 ./fortran_pingpong
 * [--reps R (batches of each, default 21)] [--max-iters N (round trips a batch, 20000)]. */
#include "bench_common.h"

void mpi_send_(void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* comm,
               MPI_Fint* ierr);
void mpi_recv_(void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* source, MPI_Fint* tag, MPI_Fint* comm,
               MPI_Fint* status, MPI_Fint* ierr);
extern MPI_Fint mpi_fortran_status_ignore_[];

static double fortranBatch(int rank, char* buf, int trips) {
  MPI_Fint count = 8, type = 1 /* MPI_BYTE */, peer = 1 - rank, tag = 1, comm = 0 /* MPI_COMM_WORLD */, ierr;
  MPI_Fint status[6];
  const double start = MPI_Wtime();
  for (int i = 0; i < trips; ++i) {
    if (rank == 0) {
      mpi_send_(buf, &count, &type, &peer, &tag, &comm, &ierr);
      mpi_recv_(buf, &count, &type, &peer, &tag, &comm, status, &ierr);
    } else {
      mpi_recv_(buf, &count, &type, &peer, &tag, &comm, status, &ierr);
      mpi_send_(buf, &count, &type, &peer, &tag, &comm, &ierr);
    }
  }
  return (MPI_Wtime() - start) / trips / 2 * 1e6;
}

static double cBatch(int rank, char* buf, int trips) {
  MPI_Status status;
  const double start = MPI_Wtime();
  for (int i = 0; i < trips; ++i) {
    if (rank == 0) {
      MPI_Send(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &status);
    } else {
      MPI_Recv(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &status);
      MPI_Send(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - start) / trips / 2 * 1e6;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  BenchArgs a = benchParse(argc, argv, (BenchArgs){.budgetMs = 0, .reps = 21, .maxIters = 20000});
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "fortran_pingpong: run on 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char buf[8] = {0};
  double* fortran = malloc(sizeof(double) * (size_t)a.reps);
  double* c = malloc(sizeof(double) * (size_t)a.reps);
  double* pairs = malloc(sizeof(double) * (size_t)a.reps);
  fortranBatch(rank, buf, a.maxIters / 10); /* warm-up of both paths */
  cBatch(rank, buf, a.maxIters / 10);
  for (int r = 0; r < a.reps; ++r) {
    /* Alternate which goes first, so neither always follows the other. */
    if (r % 2 == 0) {
      fortran[r] = fortranBatch(rank, buf, a.maxIters);
      c[r] = cBatch(rank, buf, a.maxIters);
    } else {
      c[r] = cBatch(rank, buf, a.maxIters);
      fortran[r] = fortranBatch(rank, buf, a.maxIters);
    }
    pairs[r] = fortran[r] / c[r];
  }
  if (rank == 0) {
    const double f = benchMedian(fortran, a.reps);
    const double m = benchMedian(c, a.reps);
    printf("# 8 B one-way latency, medians of %d batches of %d round trips: fortran_us C_us ratio pair_ratio\n", a.reps,
           a.maxIters);
    printf("%.4f %.4f %.4f %.4f\n", f, m, f / m, benchMedian(pairs, a.reps));
  }
  free(fortran);
  free(c);
  free(pairs);
  MPI_Finalize();
  return 0;
}
