/* Tiny MPI check for the test cluster: each rank prints rank/size/host and
 * the ranks agree on an Allreduce, which needs a working PMI(x) exchange of
 * endpoint data between the nodes. Exits non-zero on a wrong sum. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, sum = 0, len;
    char host[MPI_MAX_PROCESSOR_NAME];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d/%d on %s allreduce %s\n", rank, size, host,
           sum == size * (size - 1) / 2 ? "ok" : "WRONG");
    MPI_Finalize();
    return sum == size * (size - 1) / 2 ? 0 : 1;
}
