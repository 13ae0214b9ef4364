/* One-sided latencies, passive target: rank 0 is the origin, every other rank a target that
 * only waits in MPI_Barrier (its MPI answers what needs answering). For each window kind
 * (MPI_Win_allocate "allocate", MPI_Win_create on malloc'd memory "create", malloc'd memory
 * attached to an MPI_Win_create_dynamic window "dynamic") and operation:
 *   lock_get_unlock    MPI_Win_lock(shared), MPI_Get of `bytes`, MPI_Win_unlock
 *   lock_put_unlock    MPI_Win_lock(exclusive), MPI_Put of `bytes`, MPI_Win_unlock
 *   fetch_and_op       MPI_Fetch_and_op(MPI_SUM, long) + MPI_Win_flush, in a lock_all epoch
 *   get_flush          MPI_Get of `bytes` + MPI_Win_flush, in a lock_all epoch
 * one untimed round, a warm-up that sizes the batch to the budget, then `reps` batches; prints
 * "kind_op bytes time_us iterations" with the median time per operation, and "# wrong kind_op
 * bytes" if a fetched value is not what the target holds. Knobs: bench_common.h (--ops
 * filters on operation names, --min-bytes/--max-bytes on the get and put sizes). */
#include "bench_common.h"

typedef struct {
  MPI_Win win;
  char* origin;
  long bytes;
  int target;
  MPI_Aint disp; /* where the target's memory starts: 0, or its address (dynamic) */
} Rma;

typedef void (*RmaOp)(Rma* r);

static void lockGetUnlock(Rma* r) {
  MPI_Win_lock(MPI_LOCK_SHARED, r->target, 0, r->win);
  MPI_Get(r->origin, (int)r->bytes, MPI_CHAR, r->target, r->disp, (int)r->bytes, MPI_CHAR, r->win);
  MPI_Win_unlock(r->target, r->win);
}

static void lockPutUnlock(Rma* r) {
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, r->target, 0, r->win);
  MPI_Put(r->origin, (int)r->bytes, MPI_CHAR, r->target, r->disp, (int)r->bytes, MPI_CHAR, r->win);
  MPI_Win_unlock(r->target, r->win);
}

static void fetchAndOp(Rma* r) {
  long one = 1;
  long old;
  MPI_Fetch_and_op(&one, &old, MPI_LONG, r->target, r->disp, MPI_SUM, r->win);
  MPI_Win_flush(r->target, r->win);
}

static void getFlush(Rma* r) {
  MPI_Get(r->origin, (int)r->bytes, MPI_CHAR, r->target, r->disp, (int)r->bytes, MPI_CHAR, r->win);
  MPI_Win_flush(r->target, r->win);
}

static int selected(const BenchArgs* a, const char* name) {
  if (!a->ops) return 1;
  const char* hit = strstr(a->ops, name);
  if (!hit) return 0;
  size_t n = strlen(name);
  return (hit == a->ops || hit[-1] == ',') && (hit[n] == '\0' || hit[n] == ',');
}

/* Times `op` on rank 0 for one size; the targets wait in the barrier that ends the batch. */
static double timeOp(Rma* r, RmaOp op, int inEpoch, const BenchArgs* a, int rank, int* itersOut) {
  if (inEpoch) MPI_Win_lock_all(0, r->win);
  double per = 0;
  if (rank == 0) {
    op(r);
    int warm = 0;
    double start = MPI_Wtime();
    do {
      op(r);
      ++warm;
    } while (MPI_Wtime() - start < a->budgetMs * 1e-3 / 10 && warm < a->maxIters);
    per = (MPI_Wtime() - start) / warm;
  }
  MPI_Bcast(&per, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int iters = benchIterations(per, a, 5);
  double times[64];
  int reps = a->reps > 64 ? 64 : a->reps;
  for (int rep = 0; rep < reps; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      double start = MPI_Wtime();
      for (int i = 0; i < iters; ++i) op(r);
      times[rep] = (MPI_Wtime() - start) / iters;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (inEpoch) MPI_Win_unlock_all(r->win);
  *itersOut = iters;
  return rank == 0 ? benchMedian(times, reps) : 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  BenchArgs a = benchParse(argc, argv, (BenchArgs){100, 3, 8, 1 << 20, 4, 1000000, NULL});
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "rma: needs at least 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const long windowBytes = a.maxBytes > 8 ? a.maxBytes : 8;
  Rma r = {MPI_WIN_NULL, malloc(windowBytes), 0, 1, 0};
  memset(r.origin, 0, windowBytes);
  const char* kinds[] = {"allocate", "create", "dynamic"};
  for (int k = 0; k < 3; ++k) {
    char* memory = NULL;
    r.disp = 0;
    if (k == 0) {
      MPI_Win_allocate(windowBytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &memory, &r.win);
    } else if (k == 1) {
      memory = malloc(windowBytes);
      MPI_Win_create(memory, windowBytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &r.win);
    } else {
      memory = malloc(windowBytes);
      MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &r.win);
      MPI_Win_attach(r.win, memory, windowBytes);
      MPI_Aint mine;
      MPI_Get_address(memory, &mine);
      /* Rank 0 reaches rank 1 only: rank 1's address is all it needs. */
      MPI_Bcast(&mine, 1, MPI_AINT, 1, MPI_COMM_WORLD);
      r.disp = mine;
    }
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, r.win);
    memset(memory, 0, windowBytes);
    MPI_Win_unlock(rank, r.win);
    MPI_Barrier(MPI_COMM_WORLD);
    char name[64];
    int iters = 0;
    snprintf(name, sizeof name, "%s_fetch_and_op", kinds[k]);
    if (selected(&a, "fetch_and_op")) {
      r.bytes = 8;
      double t = timeOp(&r, fetchAndOp, 1, &a, rank, &iters);
      long seen = -1;
      if (rank == 0) {
        /* Every call added one: the count so far is what the target holds. */
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, r.win);
        MPI_Get(&seen, 1, MPI_LONG, 1, r.disp, 1, MPI_LONG, r.win);
        MPI_Win_unlock(1, r.win);
        if (seen <= 0) printf("# wrong %s 8\n", name);
        printf("%s 8 %.3f %d\n", name, t * 1e6, iters);
        fflush(stdout);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
    const char* sized[] = {"lock_get_unlock", "lock_put_unlock", "get_flush"};
    RmaOp sizedOps[] = {lockGetUnlock, lockPutUnlock, getFlush};
    int inEpoch[] = {0, 0, 1};
    for (int o = 0; o < 3; ++o) {
      if (!selected(&a, sized[o])) continue;
      snprintf(name, sizeof name, "%s_%s", kinds[k], sized[o]);
      for (long bytes = a.minBytes; bytes <= a.maxBytes; bytes = benchNextSize(bytes, &a)) {
        r.bytes = bytes;
        double t = timeOp(&r, sizedOps[o], inEpoch[o], &a, rank, &iters);
        if (rank == 0) {
          printf("%s %ld %.3f %d\n", name, bytes, t * 1e6, iters);
          fflush(stdout);
        }
      }
    }
    if (k == 2) MPI_Win_detach(r.win, memory);
    MPI_Win_free(&r.win);
    if (k > 0) free(memory);
  }
  free(r.origin);
  benchReportMemory();
  MPI_Finalize();
  return 0;
}
