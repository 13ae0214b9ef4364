/* The floor of a loopback TCP ping-pong on this machine, without MPI or zmq: two processes,
 * one TCP connection (TCP_NODELAY), each message sent and received whole by the process's
 * only thread; 1, 2 and 4 MiB, 180 timed round trips after 20 warm-up ones.
 *   cc -O2 bench/src/tcp_raw_pingpong.c -o /tmp/tcp_raw_pingpong
 *   /tmp/tcp_raw_pingpong 0   blocking send/recv (sleeps while it waits, as zmpi's threads do)
 *   /tmp/tcp_raw_pingpong 1   non-blocking, polling without end (as Open MPI's tcp BTL)
 *   /tmp/tcp_raw_pingpong 2   non-blocking, sched_yield() after each empty try
 * Prints "bytes one-way-us". See bench/CURVE.md (bulk data connections). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int mode;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void transfer(int fd, char* buf, size_t n, int sending) {
  size_t done = 0;
  while (done < n) {
    const int flags = mode ? MSG_DONTWAIT : 0;
    ssize_t r = sending ? send(fd, buf + done, n - done, flags) : recv(fd, buf + done, n - done, flags);
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (mode == 2) sched_yield();
      continue;
    }
    if (r <= 0) {
      perror(sending ? "send" : "recv");
      exit(1);
    }
    done += (size_t)r;
  }
}

int main(int argc, char** argv) {
  mode = argc > 1 ? atoi(argv[1]) : 0;
  const size_t max = 4 << 20;
  const int one = 1, warm = 20, timed = 180;
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in address = {0};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (bind(listener, (struct sockaddr*)&address, sizeof address) != 0 || listen(listener, 1) != 0 ||
      getsockname(listener, (struct sockaddr*)&address, &length) != 0) {
    perror("listen");
    return 1;
  }
  char* buf = malloc(max);
  memset(buf, 1, max);
  pid_t child = fork();
  if (child == 0) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, (struct sockaddr*)&address, sizeof address) != 0) {
      perror("connect");
      exit(1);
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    for (size_t n = 1 << 20; n <= max; n *= 2) {
      for (int i = 0; i < warm + timed; i++) {
        transfer(fd, buf, n, 0);
        transfer(fd, buf, n, 1);
      }
    }
    exit(0);
  }
  int fd = accept(listener, NULL, NULL);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  for (size_t n = 1 << 20; n <= max; n *= 2) {
    double start = 0;
    for (int i = 0; i < warm + timed; i++) {
      if (i == warm) start = now();
      transfer(fd, buf, n, 1);
      transfer(fd, buf, n, 0);
    }
    printf("%zu %.1f\n", n, (now() - start) / timed / 2 * 1e6);
  }
  waitpid(child, NULL, 0);
  free(buf);
  return 0;
}
