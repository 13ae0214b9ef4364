/* Probe, Iprobe, Mprobe/Mrecv and Improbe/Imrecv: sizes learned before receiving.
 * zmpi-test-ranks: 2 3 */
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 1) {
    double small[10], *big = malloc(sizeof(double) * 100000);
    for (int i = 0; i < 10; ++i) small[i] = i;
    for (int i = 0; i < 100000; ++i) big[i] = i * 0.5;
    MPI_Send(small, 10, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
    MPI_Send(big, 100000, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD);
    MPI_Send(small, 3, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
    MPI_Send(small, 4, MPI_DOUBLE, 0, 10, MPI_COMM_WORLD);
    free(big);
  } else if (rank == 0) {
    MPI_Status status;
    int count, flag = 0;
    MPI_Probe(1, 7, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_DOUBLE, &count);
    CHECK_EQ_INT(count, 10);
    CHECK_EQ_INT(status.MPI_TAG, 7);
    double small[10];
    MPI_Recv(small, count, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(small[9] == 9.0);
    /* rendezvous-sized: probe reports the full size before any data moved */
    while (!flag) MPI_Iprobe(MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &flag, &status);
    MPI_Get_count(&status, MPI_DOUBLE, &count);
    CHECK_EQ_INT(count, 100000);
    MPI_Message message;
    MPI_Mprobe(1, 8, MPI_COMM_WORLD, &message, &status);
    double* big = malloc(sizeof(double) * count);
    MPI_Mrecv(big, count, MPI_DOUBLE, &message, &status);
    CHECK(message == MPI_MESSAGE_NULL);
    CHECK(big[99999] == 99999 * 0.5);
    free(big);
    flag = 0;
    while (!flag) MPI_Improbe(1, 9, MPI_COMM_WORLD, &flag, &message, &status);
    MPI_Request request;
    MPI_Imrecv(small, 3, MPI_DOUBLE, &message, &request);
    MPI_Wait(&request, &status);
    MPI_Get_count(&status, MPI_DOUBLE, &count);
    CHECK_EQ_INT(count, 3);
    /* a matched message is no longer visible to probes */
    MPI_Mprobe(1, 10, MPI_COMM_WORLD, &message, &status);
    MPI_Iprobe(1, 10, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK_EQ_INT(flag, 0);
    MPI_Mrecv(small, 4, MPI_DOUBLE, &message, MPI_STATUS_IGNORE);
    CHECK(small[3] == 3.0);
  }
  MPI_Finalize();
  return 0;
}
