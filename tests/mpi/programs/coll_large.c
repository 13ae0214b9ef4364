/* 64 MiB collectives: Allreduce (the bandwidth-bound algorithm), Bcast (scatter +
 * allgather), non-blocking Iallreduce of the same size, each checked element by element.
 * Under ThreadSanitizer 16 MiB: every access costs several times more there, and 16 MiB is
 * still far above every size at which the paths change (pieces of 256 KiB, the 512 KiB
 * shared-memory rings, tcp's 1 MiB pieces and 8 MiB eager window), so the same paths run,
 * in fewer pieces each. */
// zmpi-test-ranks: 1 2 3 4 5
#include <stdlib.h>

#include "check.h"

#if defined(__SANITIZE_THREAD__)
#define MIB 16
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MIB 16
#endif
#endif
#ifndef MIB
#define MIB 64
#endif

enum { kDoubles = MIB * 1024 * 1024 / 8 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double* in = malloc(sizeof(double) * kDoubles);
  double* out = malloc(sizeof(double) * kDoubles);
  /* Integer values: the sum is exact whatever the order. */
  for (int i = 0; i < kDoubles; ++i) in[i] = rank + (i & 1023);
  MPI_Allreduce(in, out, kDoubles, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double base = size * (size - 1) / 2.0;
  for (int i = 0; i < kDoubles; ++i) {
    if (out[i] != base + size * (i & 1023)) CHECK(out[i] == base + size * (i & 1023));
  }
  const int root = size - 1;
  for (int i = 0; i < kDoubles; ++i) out[i] = rank == root ? i * 0.5 : -1.0;
  MPI_Bcast(out, kDoubles, MPI_DOUBLE, root, MPI_COMM_WORLD);
  for (int i = 0; i < kDoubles; ++i) {
    if (out[i] != i * 0.5) CHECK(out[i] == i * 0.5);
  }
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, in, kDoubles, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  for (int i = 0; i < kDoubles; ++i) {
    if (in[i] != size - 1 + (i & 1023)) CHECK(in[i] == size - 1 + (i & 1023));
  }
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
