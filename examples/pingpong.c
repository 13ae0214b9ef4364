/* pingpong: latency and bandwidth between rank 0 and rank 1. A message goes to rank 1
 * and straight back, many times per size, from 0 bytes up to a maximum (default 4 MiB).
 * Latency is half a round trip; bandwidth is bytes moved one way per second of it.
 * Ranks beyond the first two just wait.
 *
 *   zmpirun -np 2 build/bin/pingpong [max-bytes]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kTag = 7 };

/* Enough round trips for a stable figure, fewer for big messages so each size takes
 * roughly the same time. */
static int roundTripsFor(long bytes) {
  if (bytes <= 4096) return 2000;
  long trips = (64L << 20) / bytes; /* about 64 MiB each way */
  return trips < 20 ? 20 : (int)trips;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "pingpong needs at least 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const long maxBytes = argc > 1 ? atol(argv[1]) : 4L << 20;
  char* buffer = malloc(maxBytes > 0 ? (size_t)maxBytes : 1);
  if (!buffer) {
    MPI_Abort(MPI_COMM_WORLD, 2);
    return 2; /* not reached */
  }
  memset(buffer, 'z', maxBytes > 0 ? (size_t)maxBytes : 1);

  if (rank == 0) printf("%12s %12s %14s %12s\n", "bytes", "round trips", "latency (us)", "MB/s");
  for (long bytes = 0; bytes <= maxBytes; bytes = bytes ? bytes * 2 : 1) {
    const int trips = roundTripsFor(bytes);
    const int count = (int)bytes;
    /* Line up before timing, so rank 1 is ready to answer the first message. */
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int trip = 0; trip < trips; ++trip) {
      if (rank == 0) {
        MPI_Send(buffer, count, MPI_BYTE, 1, kTag, MPI_COMM_WORLD);
        MPI_Recv(buffer, count, MPI_BYTE, 1, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buffer, count, MPI_BYTE, 0, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buffer, count, MPI_BYTE, 0, kTag, MPI_COMM_WORLD);
      }
    }
    const double oneWay = (MPI_Wtime() - start) / (2.0 * trips);
    if (rank == 0) {
      printf("%12ld %12d %14.2f %12.1f\n", bytes, trips, oneWay * 1e6, bytes ? (double)bytes / oneWay / 1e6 : 0.0);
      fflush(stdout);
    }
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
