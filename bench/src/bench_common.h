/* Shared helpers of the benchmark programs: argument parsing, a median, the iteration count
 * derived from a time budget, and the peak-memory report. Plain C11 + MPI, so the same
 * source builds with zmpicc, mpicc.openmpi and mpicc.mpich. */
#ifndef ZMPI_BENCH_COMMON_H
#define ZMPI_BENCH_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* Benchmark knobs, the same for every program (each reads the ones it needs):
 *   --budget-ms B   target time of one timed batch per size (iterations follow from it)
 *   --reps R        timed batches per size; the median is reported
 *   --min-bytes N --max-bytes N --step F   sizes N, N*F, ... up to max (max always included)
 *   --max-iters N   cap on iterations per batch
 *   --ops a,b,c     (collectives) which operations */
typedef struct {
  double budgetMs;
  int reps;
  long minBytes;
  long maxBytes;
  int step;
  int maxIters;
  const char* ops;
} BenchArgs;

static inline BenchArgs benchParse(int argc, char** argv, BenchArgs defaults) {
  BenchArgs a = defaults;
  for (int i = 1; i + 1 < argc; i += 2) {
    const char* k = argv[i];
    const char* v = argv[i + 1];
    if (!strcmp(k, "--budget-ms")) a.budgetMs = atof(v);
    else if (!strcmp(k, "--reps")) a.reps = atoi(v);
    else if (!strcmp(k, "--min-bytes")) a.minBytes = atol(v);
    else if (!strcmp(k, "--max-bytes")) a.maxBytes = atol(v);
    else if (!strcmp(k, "--step")) a.step = atoi(v);
    else if (!strcmp(k, "--max-iters")) a.maxIters = atoi(v);
    else if (!strcmp(k, "--ops")) a.ops = v;
    else {
      fprintf(stderr, "bench: unknown option %s\n", k);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (a.reps < 1) a.reps = 1;
  if (a.step < 2) a.step = 2;
  if (a.maxIters < 1) a.maxIters = 1;
  return a;
}

/* The next size after `bytes`: 0 -> 1, then times step, clamped to max so max is measured. */
static inline long benchNextSize(long bytes, const BenchArgs* a) {
  if (bytes >= a->maxBytes) return a->maxBytes + 1;
  long next = bytes == 0 ? 1 : bytes * a->step;
  return next > a->maxBytes ? a->maxBytes : next;
}

static int benchCompareDouble(const void* x, const void* y) {
  double a = *(const double*)x, b = *(const double*)y;
  return a < b ? -1 : a > b;
}

static inline double benchMedian(double* values, int n) {
  qsort(values, n, sizeof(double), benchCompareDouble);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* Iterations for a batch of about budgetMs, from the seconds one iteration took (the same
 * value on every rank, so every rank runs the same count). */
static inline int benchIterations(double secondsPerIteration, const BenchArgs* a, int minIters) {
  double n = secondsPerIteration > 0 ? a->budgetMs * 1e-3 / secondsPerIteration : a->maxIters;
  if (n > a->maxIters) n = a->maxIters;
  if (n < minIters) n = minIters;
  return (int)n;
}

/* Peak resident set of this process in KiB: VmHWM from /proc/self/status, else ru_maxrss. */
static inline long benchPeakKiB(void) {
  FILE* f = fopen("/proc/self/status", "r");
  long kib = -1;
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f))
      if (!strncmp(line, "VmHWM:", 6)) kib = atol(line + 6);
    fclose(f);
  }
  if (kib < 0) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    kib = usage.ru_maxrss;
  }
  return kib;
}

/* Rank 0 prints "# mem RANK KIB" for every rank of MPI_COMM_WORLD. */
static inline void benchReportMemory(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long mine = benchPeakKiB();
  long* all = rank == 0 ? malloc(sizeof(long) * size) : NULL;
  MPI_Gather(&mine, 1, MPI_LONG, all, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < size; ++r) printf("# mem %d %ld\n", r, all[r]);
    fflush(stdout);
    free(all);
  }
}

#endif
