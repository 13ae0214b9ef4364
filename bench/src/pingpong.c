/* Ping-pong latency and bandwidth between ranks 0 and 1, 0 B to 4 MiB (OSU-style: a
 * warm-up, then the median of timed round trips). Built against each MPI under
 * comparison; prints "bytes latency_us bandwidth_MBps" lines. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int max = 4 << 20;
  char* buf = malloc(max);
  memset(buf, 1, max);
  if (rank == 0) printf("# bytes latency_us bandwidth_MBps\n");
  for (int bytes = 0; bytes <= max; bytes = bytes ? bytes * 2 : 1) {
    const int iterations = bytes <= 65536 ? 1000 : bytes <= (1 << 20) ? 100 : 30;
    const int warmup = iterations / 10 + 1;
    double* samples = malloc(sizeof(double) * iterations);
    for (int i = -warmup; i < iterations; ++i) {
      double start = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(buf, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buf, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      }
      if (i >= 0) samples[i] = MPI_Wtime() - start;
    }
    if (rank == 0) {
      qsort(samples, iterations, sizeof(double), compare);
      double oneWay = samples[iterations / 2] / 2;
      printf("%d %.3f %.1f\n", bytes, oneWay * 1e6, bytes ? bytes / oneWay / 1e6 : 0.0);
      fflush(stdout);
    }
    free(samples);
    if (bytes >= (1 << 16) && bytes % 3 == 0) break;
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
