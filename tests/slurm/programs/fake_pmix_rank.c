/* A rank that speaks PMIx but is not zmpi: it goes through the two fences MPI_Init runs
 * (the job secret's, then the cards') publishing in the second either nothing ("missing")
 * or a card that is not one ("garbage"). The real ranks' MPI_Init must fail naming the
 * key, the rank and PMIx -- never hang, never use the card. Run as rank 1 of the step
 * (ranks other than 1 exec the real program named by argv[2]). */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  const char* rank = getenv("PMIX_RANK");
  if (argc < 3) return 2;
  if (rank == NULL || strcmp(rank, "1") != 0) {
    execv(argv[2], argv + 2);
    return 127;
  }
  pmix_proc_t self;
  if (PMIx_Init(&self, NULL, 0) != PMIX_SUCCESS) return 3;
  pmix_info_t collect;
  PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, NULL, PMIX_BOOL);
  PMIx_Fence(NULL, 0, &collect, 1); /* the secret's fence: rank 0 publishes it */
  if (strcmp(argv[1], "garbage") == 0) {
    pmix_value_t value;
    PMIX_VALUE_CONSTRUCT(&value);
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = "\xff\xff\xff not a card";
    value.data.bo.size = 16;
    PMIx_Put(PMIX_GLOBAL, "zmpi.card", &value);
    PMIx_Commit();
  }
  PMIx_Fence(NULL, 0, &collect, 1); /* the cards' fence */
  fprintf(stderr, "fake_pmix_rank: rank 1 went through both fences (%s card)\n", argv[1]);
  PMIx_Finalize(NULL, 0);
  return 0;
}
