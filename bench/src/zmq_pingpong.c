/* The floor of zmpi's tcp path: a raw zmq ping-pong between two processes over loopback
 * tcp (ZMQ_PAIR; zmq_send/zmq_recv copy into one buffer), 0 B to 4 MiB, the
 * same timing as pingpong.c (median round trip / 2). No MPI. Prints
 * "bytes latency_us bandwidth_MBps". Usage: zmq_pingpong [--budget-ms B] [--max-bytes N]
 * [--min-bytes N] [--step F] [--max-iters N]. Every receive has a 10 s timeout, so a lost
 * peer ends the program instead of hanging it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare(const void* x, const void* y) {
  double a = *(const double*)x, b = *(const double*)y;
  return a < b ? -1 : a > b;
}

static void check(int rc, const char* what) {
  if (rc < 0) {
    fprintf(stderr, "zmq_pingpong: %s: %s\n", what, zmq_strerror(zmq_errno()));
    exit(1);
  }
}

static void trip(void* s, char* buf, long bytes, int first) {
  if (first) {
    check(zmq_send(s, buf, (size_t)bytes, 0), "send");
    check(zmq_recv(s, buf, (size_t)bytes, 0), "recv");
  } else {
    check(zmq_recv(s, buf, (size_t)bytes, 0), "recv");
    check(zmq_send(s, buf, (size_t)bytes, 0), "send");
  }
}

int main(int argc, char** argv) {
  double budgetMs = 100;
  long minBytes = 0, maxBytes = 4 << 20;
  int step = 2, maxIters = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--budget-ms")) budgetMs = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--max-bytes")) maxBytes = atol(argv[i + 1]);
    else if (!strcmp(argv[i], "--min-bytes")) minBytes = atol(argv[i + 1]);
    else if (!strcmp(argv[i], "--step")) step = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--max-iters")) maxIters = atoi(argv[i + 1]);
    /* other benchmark knobs (--reps, --ops) do not apply here */
  }
  int pipefd[2];
  if (pipe(pipefd) != 0) return 1;
  pid_t child = fork();
  const int first = child != 0; /* the parent binds and starts every round trip */
  void* ctx = zmq_ctx_new();
  void* s = zmq_socket(ctx, ZMQ_PAIR);
  int linger = 0, timeout = 10000;
  zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
  zmq_setsockopt(s, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
  zmq_setsockopt(s, ZMQ_SNDTIMEO, &timeout, sizeof timeout);
  char endpoint[256] = {0};
  if (first) {
    check(zmq_bind(s, "tcp://127.0.0.1:*"), "bind");
    size_t len = sizeof endpoint;
    zmq_getsockopt(s, ZMQ_LAST_ENDPOINT, endpoint, &len);
    if (write(pipefd[1], endpoint, sizeof endpoint) != (ssize_t)sizeof endpoint) return 1;
  } else {
    if (read(pipefd[0], endpoint, sizeof endpoint) != (ssize_t)sizeof endpoint) return 1;
    check(zmq_connect(s, endpoint), "connect");
  }
  char* buf = calloc(1, maxBytes > 0 ? maxBytes : 1);
  if (first) printf("# bytes latency_us bandwidth_MBps\n");
  for (long bytes = minBytes; bytes <= maxBytes;) {
    trip(s, buf, bytes, first);
    const int warm = bytes >= (1 << 20) ? 2 : 10;
    double start = now();
    for (int i = 0; i < warm; ++i) trip(s, buf, bytes, first);
    double perTrip = (now() - start) / warm;
    if (first) check(zmq_send(s, &perTrip, sizeof perTrip, 0), "send count");
    else check(zmq_recv(s, &perTrip, sizeof perTrip, 0), "recv count");
    double n = budgetMs * 1e-3 / perTrip;
    int iterations = n > maxIters ? maxIters : n < 5 ? 5 : (int)n;
    double* samples = malloc(sizeof(double) * iterations);
    for (int i = 0; i < iterations; ++i) {
      double t = now();
      trip(s, buf, bytes, first);
      samples[i] = now() - t;
    }
    if (first) {
      qsort(samples, iterations, sizeof(double), compare);
      double oneWay = samples[iterations / 2] / 2;
      printf("%ld %.3f %.1f\n", bytes, oneWay * 1e6, bytes ? bytes / oneWay / 1e6 : 0.0);
      fflush(stdout);
    }
    free(samples);
    if (bytes >= maxBytes) break;
    bytes = bytes == 0 ? 1 : bytes * step > maxBytes ? maxBytes : bytes * step;
  }
  free(buf);
  zmq_close(s);
  zmq_ctx_term(ctx);
  if (first) {
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  return 0;
}
