/* PMI-2 check against Slurm's mpi/pmi2 plugin (srun --mpi=pmi2), using
 * Slurm's libpmi2: every rank puts a key, fences, and reads every other
 * rank's key, which crosses nodes through the slurmstepd tree.
 * Build: cc -o pmi2_hello pmi2_hello.c -lpmi2 */
#include <slurm/pmi2.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    int spawned, size, rank, appnum, len, r, bad = 0;
    char jobid[256], key[64], val[PMI2_MAX_VALLEN], want[64], host[64];

    if (PMI2_Init(&spawned, &size, &rank, &appnum) != PMI2_SUCCESS) {
        fprintf(stderr, "PMI2_Init failed\n");
        return 2;
    }
    PMI2_Job_GetId(jobid, sizeof jobid);
    gethostname(host, sizeof host);
    snprintf(key, sizeof key, "k%d", rank);
    snprintf(val, sizeof val, "v%d@%s", rank, host);
    PMI2_KVS_Put(key, val);
    if (PMI2_KVS_Fence() != PMI2_SUCCESS)
        bad = 1;
    for (r = 0; r < size; r++) {
        snprintf(key, sizeof key, "k%d", r);
        snprintf(want, sizeof want, "v%d@", r);
        if (PMI2_KVS_Get(jobid, r, key, val, sizeof val, &len) != PMI2_SUCCESS ||
            strncmp(val, want, strlen(want)) != 0)
            bad = 1;
    }
    printf("pmi2 rank %d/%d on %s job %s kvs %s\n", rank, size, host, jobid,
           bad ? "WRONG" : "ok");
    PMI2_Finalize();
    return bad;
}
