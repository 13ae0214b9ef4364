/* A flooding sender cannot grow the receiver's memory without bound: rank 0 starts 256
 * nonblocking 1 MiB sends (256 MiB) before rank 1 posts a single receive. Large messages
 * use the rendezvous protocol, so rank 1 holds only their envelopes until it receives:
 * once all 256 are visible to MPI_Iprobe, its peak resident memory must still be far below
 * 256 MiB. Then everything is received and checked.
 * zmpi-test-ranks: 2 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "peak_memory.h"

#define MESSAGES 256
#define BYTES (1 << 20)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* buffer = malloc(BYTES);
  if (rank == 0) {
    MPI_Request requests[MESSAGES];
    for (int i = 0; i < BYTES; ++i) buffer[i] = (char)i;
    for (int m = 0; m < MESSAGES; ++m) MPI_Isend(buffer, BYTES, MPI_CHAR, 1, m, MPI_COMM_WORLD, &requests[m]);
    MPI_Waitall(MESSAGES, requests, MPI_STATUSES_IGNORE);
  } else if (rank == 1) {
    memset(buffer, 0, BYTES);
    const long before = peakResidentKiB();
    /* Wait until every message has announced itself. */
    for (int m = 0; m < MESSAGES; ++m) MPI_Probe(0, m, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const long after = peakResidentKiB();
    printf("peak RSS before %ld KiB, with %d MiB announced %ld KiB\n", before, MESSAGES, after);
    CHECK(after - before < 32 * 1024);
    for (int m = 0; m < MESSAGES; ++m) {
      MPI_Recv(buffer, BYTES, MPI_CHAR, 0, m, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(buffer[BYTES - 1] == (char)(BYTES - 1));
      buffer[BYTES - 1] = 0;
    }
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
