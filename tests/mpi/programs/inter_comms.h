/* The intercommunicator the inter_* test programs share: world ranks with rank % 3 == 1
 * form group A, the others group B (np 2: 1 | 1; np 3: 1 | 2; np 4: 1 | 3 -- uneven, and
 * interleaved in the world, so rank mappings are really exercised). */
#ifndef ZMPI_TEST_INTER_COMMS_H
#define ZMPI_TEST_INTER_COMMS_H
#include <mpi.h>

typedef struct {
  MPI_Comm local, inter;
  int inA; /* this process is in group A */
  int localRank, localSize, remoteSize;
  int remoteWorld[64]; /* world rank of each remote rank */
  int localWorld[64];  /* world rank of each local rank */
} Inter;

static void groupWorldRanks(MPI_Group group, int size, int* out) {
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int ranks[64];
  for (int i = 0; i < size; ++i) ranks[i] = i;
  MPI_Group_translate_ranks(group, size, ranks, world, out);
  MPI_Group_free(&world);
}

static Inter makeInter(void) {
  Inter x;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  x.inA = rank % 3 == 1;
  MPI_Comm_split(MPI_COMM_WORLD, x.inA, rank, &x.local);
  /* Leaders: world rank 1 leads A, world rank 0 leads B. */
  MPI_Intercomm_create(x.local, 0, MPI_COMM_WORLD, x.inA ? 0 : 1, 99, &x.inter);
  MPI_Comm_rank(x.inter, &x.localRank);
  MPI_Comm_size(x.inter, &x.localSize);
  MPI_Comm_remote_size(x.inter, &x.remoteSize);
  MPI_Group remote, local;
  MPI_Comm_remote_group(x.inter, &remote);
  MPI_Comm_group(x.inter, &local);
  groupWorldRanks(remote, x.remoteSize, x.remoteWorld);
  groupWorldRanks(local, x.localSize, x.localWorld);
  MPI_Group_free(&remote);
  MPI_Group_free(&local);
  return x;
}

static void freeInter(Inter* x) {
  MPI_Comm_free(&x->inter);
  MPI_Comm_free(&x->local);
}

#endif
