/* Collective timings, OSU-style: for each operation and size, one untimed call, a short
 * timed warm-up that sets how many calls fit the time budget (the same count on every
 * rank), then `reps` batches: MPI_Barrier, time the batch, time per call on each rank, the
 * maximum over ranks. Prints "op bytes time_us iterations" with the median of the batches,
 * "# wrong op bytes rank" if a result is not what the operation must produce, and the
 * ranks' peak memory as "# mem RANK KIB". Sizes are per rank and per block (OSU's
 * convention): allreduce and bcast move `bytes`, allgather gathers `bytes` from every rank,
 * alltoall sends `bytes` to every rank. Knobs: see bench_common.h. */
#include "bench_common.h"

typedef struct {
  int rank, size;
  char *send, *recv;
  long bytes;
} Buffers;

static void allreduceOp(Buffers* b) {
  MPI_Allreduce(b->send, b->recv, (int)(b->bytes / sizeof(float)), MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
}
static void bcastOp(Buffers* b) {
  MPI_Bcast(b->rank == 0 ? b->send : b->recv, (int)b->bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
}
static void allgatherOp(Buffers* b) {
  MPI_Allgather(b->send, (int)b->bytes, MPI_CHAR, b->recv, (int)b->bytes, MPI_CHAR,
                MPI_COMM_WORLD);
}
static void alltoallOp(Buffers* b) {
  MPI_Alltoall(b->send, (int)b->bytes, MPI_CHAR, b->recv, (int)b->bytes, MPI_CHAR,
               MPI_COMM_WORLD);
}
static void barrierOp(Buffers* b) {
  (void)b;
  MPI_Barrier(MPI_COMM_WORLD);
}

static unsigned char bcastByte(long i) { return (unsigned char)(i * 31 + 7); }
static unsigned char alltoallByte(int from, int to) { return (unsigned char)(from * 16 + to + 1); }

/* Fills the inputs with a pattern that makes a wrong result visible and clears the output. */
static void prepare(const char* op, Buffers* b) {
  memset(b->recv, 0, (size_t)b->bytes * b->size);
  if (!strcmp(op, "allreduce")) {
    float* f = (float*)b->send;
    for (long i = 0; i < b->bytes / (long)sizeof(float); ++i) f[i] = (float)(b->rank + 1);
  } else if (!strcmp(op, "bcast")) {
    for (long i = 0; i < b->bytes; ++i) b->send[i] = (char)bcastByte(i);
  } else if (!strcmp(op, "allgather")) {
    memset(b->send, b->rank + 1, (size_t)b->bytes);
  } else if (!strcmp(op, "alltoall")) {
    for (int to = 0; to < b->size; ++to)
      memset(b->send + to * b->bytes, alltoallByte(b->rank, to), (size_t)b->bytes);
  }
}

/* 1 when the output holds what the operation must have produced. */
static int correct(const char* op, const Buffers* b) {
  const unsigned char* r = (const unsigned char*)b->recv;
  if (!strcmp(op, "allreduce")) {
    const float* f = (const float*)b->recv;
    const float expected = (float)(b->size * (b->size + 1) / 2);
    for (long i = 0; i < b->bytes / (long)sizeof(float); ++i)
      if (f[i] != expected) return 0;
  } else if (!strcmp(op, "bcast")) {
    if (b->rank == 0) return 1;
    for (long i = 0; i < b->bytes; ++i)
      if (r[i] != bcastByte(i)) return 0;
  } else if (!strcmp(op, "allgather")) {
    for (long i = 0; i < b->bytes * b->size; ++i)
      if (r[i] != (unsigned char)(i / b->bytes + 1)) return 0;
  } else if (!strcmp(op, "alltoall")) {
    for (long i = 0; i < b->bytes * b->size; ++i)
      if (r[i] != alltoallByte((int)(i / b->bytes), b->rank)) return 0;
  }
  return 1;
}

static void measure(const char* op, void (*call)(Buffers*), Buffers* b, const BenchArgs* a) {
  prepare(op, b);
  /* Warm-up, untimed: what an MPI does once per communicator or peer (connections, zmpi's
   * shared-memory segment at the third call) must not set the batch size below; then the
   * same number of timed calls, whose mean sets how many calls fit the budget. */
  const int warm = b->bytes >= (1 << 20) ? 1 : 5;
  for (int i = 0; i < warm; ++i) call(b);
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int i = 0; i < warm; ++i) call(b);
  double perCall = (MPI_Wtime() - start) / warm, slowest;
  MPI_Allreduce(&perCall, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const int iterations = benchIterations(slowest, a, b->bytes <= 65536 ? 10 : 2);
  double* batches = malloc(sizeof(double) * a->reps);
  for (int rep = 0; rep < a->reps; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < iterations; ++i) call(b);
    double mine = (MPI_Wtime() - t) / iterations;
    MPI_Reduce(&mine, &batches[rep], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  }
  if (!correct(op, b)) {
    printf("# wrong %s %ld %d\n", op, b->bytes, b->rank);
    fflush(stdout);
  }
  if (b->rank == 0) {
    printf("%s %ld %.3f %d\n", op, b->bytes, benchMedian(batches, a->reps) * 1e6, iterations);
    fflush(stdout);
  }
  free(batches);
}

static int wanted(const char* ops, const char* op) {
  size_t n = strlen(op);
  for (const char* p = strstr(ops, op); p; p = strstr(p + 1, op))
    if ((p == ops || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  BenchArgs a = benchParse(argc, argv,
                           (BenchArgs){.budgetMs = 100, .reps = 3, .minBytes = 8,
                                       .maxBytes = 16 << 20, .step = 4, .maxIters = 2000,
                                       .ops = "allreduce,bcast,alltoall,allgather,barrier"});
  Buffers b = {.bytes = 0};
  MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &b.size);
  b.send = malloc((size_t)a.maxBytes * b.size);
  b.recv = malloc((size_t)a.maxBytes * b.size);
  if (b.rank == 0) printf("# op bytes time_us iterations\n");
  static const struct {
    const char* name;
    void (*call)(Buffers*);
  } ops[] = {{"allreduce", allreduceOp}, {"bcast", bcastOp}, {"alltoall", alltoallOp},
             {"allgather", allgatherOp}};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k) {
    if (!wanted(a.ops, ops[k].name)) continue;
    for (long bytes = a.minBytes; bytes <= a.maxBytes; bytes = benchNextSize(bytes, &a)) {
      b.bytes = bytes;
      measure(ops[k].name, ops[k].call, &b, &a);
    }
  }
  if (wanted(a.ops, "barrier")) {
    b.bytes = 0;
    measure("barrier", barrierOp, &b, &a);
  }
  free(b.send);
  free(b.recv);
  benchReportMemory();
  MPI_Finalize();
  return 0;
}
