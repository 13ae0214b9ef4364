/* MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) across hosts: each rank's node communicator
 * holds exactly the ranks whose ZMPI_HOST is its own, in world-rank order (the key), and
 * carries traffic among them only. Prints one line per rank for the test to read. */
#include <stdlib.h>
#include <string.h>

#include "../../mpi/programs/check.h"

enum { kNameBytes = 64 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char host[kNameBytes] = {0};
  const char* env = getenv("ZMPI_HOST");
  strncpy(host, env != NULL ? env : "?", kNameBytes - 1);
  char* hosts = malloc((size_t)size * kNameBytes);
  MPI_Allgather(host, kNameBytes, MPI_CHAR, hosts, kNameBytes, MPI_CHAR, MPI_COMM_WORLD);

  int expectedSize = 0, expectedRank = 0, expectedSum = 0;
  for (int r = 0; r < size; ++r) {
    if (strcmp(hosts + (size_t)r * kNameBytes, host) != 0) continue;
    if (r < rank) ++expectedRank;
    ++expectedSize;
    expectedSum += r;
  }

  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int nodeRank, nodeSize, sum;
  MPI_Comm_rank(node, &nodeRank);
  MPI_Comm_size(node, &nodeSize);
  CHECK_EQ_INT(nodeSize, expectedSize);
  CHECK_EQ_INT(nodeRank, expectedRank);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, node);
  CHECK_EQ_INT(sum, expectedSum);

  /* One leader per host: the hosts' count agrees with what the names say. */
  MPI_Comm leaders;
  MPI_Comm_split(MPI_COMM_WORLD, nodeRank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  int hostCount = 0;
  if (leaders != MPI_COMM_NULL) {
    MPI_Comm_size(leaders, &hostCount);
    MPI_Comm_free(&leaders);
  }
  MPI_Bcast(&hostCount, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int distinct = 0;
  for (int r = 0; r < size; ++r) {
    int first = 1;
    for (int q = 0; q < r; ++q) first &= strcmp(hosts + (size_t)q * kNameBytes, hosts + (size_t)r * kNameBytes) != 0;
    distinct += first;
  }
  CHECK_EQ_INT(hostCount, distinct);

  printf("rank %d on %s: node rank %d of %d, %d hosts\n", rank, host, nodeRank, nodeSize, hostCount);
  MPI_Comm_free(&node);
  free(hosts);
  MPI_Finalize();
  return 0;
}
