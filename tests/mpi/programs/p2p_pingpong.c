/* Ping-pong between rank 0 and 1 at sizes from 0 B to 4 MiB (eager and rendezvous), with
 * the content checked every round; other ranks just take part in finalize.
 * zmpi-test-ranks: 2 3 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int max = 4 << 20;
  unsigned char* buf = malloc(max);
  for (int bytes = 0; bytes <= max; bytes = bytes ? bytes * 4 : 1) {
    for (int round = 0; round < 3; ++round) {
      if (rank == 0) {
        for (int i = 0; i < bytes; ++i) buf[i] = (unsigned char)(i + round);
        MPI_Send(buf, bytes, MPI_BYTE, 1, round, MPI_COMM_WORLD);
        memset(buf, 0, bytes);
        MPI_Status status;
        MPI_Recv(buf, bytes, MPI_BYTE, 1, round, MPI_COMM_WORLD, &status);
        int count;
        MPI_Get_count(&status, MPI_BYTE, &count);
        CHECK_EQ_INT(count, bytes);
        for (int i = 0; i < bytes; ++i) CHECK(buf[i] == (unsigned char)(i + round + 1));
      } else if (rank == 1) {
        MPI_Recv(buf, bytes, MPI_BYTE, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < bytes; ++i) buf[i]++;
        MPI_Send(buf, bytes, MPI_BYTE, 0, round, MPI_COMM_WORLD);
      }
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
