/* A rank that never reaches MPI_Init (rank 1 by the manager's PMIX_RANK / PMI_RANK waits
 * for good): the others' MPI_Init must fail within ZMPI_STARTUP_TIMEOUT_MS, naming the
 * fence, the rank and the manager, instead of hanging. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  const char* rank = getenv("PMIX_RANK");
  if (rank == NULL) rank = getenv("PMI_RANK");
  if (rank != NULL && strcmp(rank, "1") == 0) {
    for (;;) pause(); /* ended by the manager when the step ends */
  }
  MPI_Init(&argc, &argv);
  MPI_Finalize();
  return 0;
}
