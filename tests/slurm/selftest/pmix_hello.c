/* PMIx check against Slurm's mpi/pmix plugin (srun --mpi=pmix), using the
 * system libpmix (4.2) client: every rank puts a key, fences with data
 * collection, and reads every other rank's key (crossing nodes).
 * Build: cc -o pmix_hello pmix_hello.c $(pkg-config --cflags --libs pmix) */
#include <pmix.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    pmix_proc_t me, wild, peer;
    pmix_value_t v, *vp = NULL;
    pmix_info_t info;
    bool collect = true;
    uint32_t size = 0;
    char key[64], val[128], want[64], host[64];
    int bad = 0;

    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) {
        fprintf(stderr, "PMIx_Init failed\n");
        return 2;
    }
    PMIX_PROC_CONSTRUCT(&wild);
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &vp) == PMIX_SUCCESS) {
        size = vp->data.uint32;
        PMIX_VALUE_RELEASE(vp);
    } else {
        bad = 1;
    }
    gethostname(host, sizeof host);
    snprintf(key, sizeof key, "k%u", me.rank);
    snprintf(val, sizeof val, "v%u@%s", me.rank, host);
    PMIX_VALUE_LOAD(&v, val, PMIX_STRING);
    PMIx_Put(PMIX_GLOBAL, key, &v);
    PMIx_Commit();
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    if (PMIx_Fence(&wild, 1, &info, 1) != PMIX_SUCCESS)
        bad = 1;
    for (uint32_t r = 0; r < size; r++) {
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        snprintf(key, sizeof key, "k%u", r);
        snprintf(want, sizeof want, "v%u@", r);
        if (PMIx_Get(&peer, key, NULL, 0, &vp) != PMIX_SUCCESS) {
            bad = 1;
            continue;
        }
        if (strncmp(vp->data.string, want, strlen(want)) != 0)
            bad = 1;
        PMIX_VALUE_RELEASE(vp);
    }
    printf("pmix rank %u/%u on %s ns %s kvs %s\n", me.rank, size, host, me.nspace,
           bad ? "WRONG" : "ok");
    PMIx_Finalize(NULL, 0);
    return bad;
}
