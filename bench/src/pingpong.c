/* Ping-pong latency and bandwidth between ranks 0 and 1, 0 B to 4 MiB (OSU-style: warm-up,
 * then the median of timed round trips). Built against each MPI under comparison; prints
 * "bytes latency_us bandwidth_MBps" lines (one-way latency = round trip / 2), then the
 * ranks' peak memory as "# mem RANK KIB". Knobs: see bench_common.h. */
#include "bench_common.h"

static void roundTrip(int rank, char* buf, int bytes) {
  if (rank == 0) {
    MPI_Send(buf, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
    MPI_Recv(buf, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(buf, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  BenchArgs a = benchParse(argc, argv, (BenchArgs){.budgetMs = 100, .reps = 1, .minBytes = 0,
                                                  .maxBytes = 4 << 20, .step = 2, .maxIters = 1000});
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* buf = malloc(a.maxBytes > 0 ? a.maxBytes : 1);
  memset(buf, 1, a.maxBytes > 0 ? a.maxBytes : 1);
  if (rank == 0) printf("# bytes latency_us bandwidth_MBps\n");
  for (long bytes = a.minBytes; bytes <= a.maxBytes; bytes = benchNextSize(bytes, &a)) {
    /* Warm-up: one untimed trip (connection, region set-up), then a few timed ones whose
     * mean sets how many trips fit the budget. */
    roundTrip(rank, buf, (int)bytes);
    const int warm = bytes >= (1 << 20) ? 2 : 10;
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int i = 0; i < warm; ++i) roundTrip(rank, buf, (int)bytes);
    double perTrip = (MPI_Wtime() - start) / warm;
    MPI_Bcast(&perTrip, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    const int iterations = benchIterations(perTrip, &a, 5);
    double* samples = malloc(sizeof(double) * iterations);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iterations; ++i) {
      double t = MPI_Wtime();
      roundTrip(rank, buf, (int)bytes);
      samples[i] = MPI_Wtime() - t;
    }
    if (rank == 0) {
      double oneWay = benchMedian(samples, iterations) / 2;
      printf("%ld %.3f %.1f\n", bytes, oneWay * 1e6, bytes ? bytes / oneWay / 1e6 : 0.0);
      fflush(stdout);
    }
    free(samples);
  }
  free(buf);
  benchReportMemory();
  MPI_Finalize();
  return 0;
}
