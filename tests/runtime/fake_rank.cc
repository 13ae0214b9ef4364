// A stand-in for an MPI rank until libmpi exists: it plays the rank side of the bootstrap
// contract (ZMPI_* environment, RendezvousClient::exchange as in MPI_Init, Finalizing
// before exit, Aborting before _exit(code)) and then misbehaves on request, so the
// launcher tests can exercise every way a job ends.
//
//   fake_rank ok                    join, print "rank R of N", finalize, exit 0
//   fake_rank exit CODE RANK        RANK exits with CODE without finalizing; others block
//   fake_rank abort CODE RANK       RANK "calls MPI_Abort(CODE)"; others block
//   fake_rank crash RANK            RANK kills itself with SIGKILL; others block
//   fake_rank nofinalize RANK       RANK exits 0 without finalizing; others block
//   fake_rank hang [stubborn]       all join, print "ready R", block (stubborn: ignore SIGTERM)
//   fake_rank lines COUNT           all write COUNT numbered lines in small pieces, finalize
//   fake_rank spew CODE             all write numbered lines (one write each) until ended;
//                                   SIGUSR1 makes a rank "call MPI_Abort(CODE)" at once,
//                                   even while its stdout is full
//   fake_rank stdin                 rank 0 echoes its stdin; others check theirs is empty
//   fake_rank verify-lines RANKS COUNT   (not a rank) checks zmpirun's output of `lines`
//                                   (COUNT -1: of `spew`, any number of lines per rank)
// With FAKE_RANK_GRANDCHILD=1 every rank first starts a child that blocks forever with
// its output on /dev/null; with =setsid that child also leaves the job's process group and
// session. The launcher must end it either way.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "transport/context.h"
#include "transport/link_security.h"
#include "transport/rendezvous.h"
#include "transport/wire.h"

namespace {

using zmpi::transport::RendezvousEvent;

int envInt(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) {
    std::fprintf(stderr, "fake_rank: %s is not set (run me through zmpirun)\n", name);
    std::exit(90);
  }
  return std::atoi(value);
}

// The job's link credentials from ZMPI_JOB_SECRET and ZMPI_ENCRYPT, as MPI_Init derives
// them (null without a secret).
std::shared_ptr<const zmpi::transport::LinkKeys> jobKeys() {
  const char* secret = std::getenv("ZMPI_JOB_SECRET");
  const bool encrypt = zmpi::transport::encryptionRequested(std::getenv(zmpi::transport::kEncryptVariable));
  return secret != nullptr && *secret != '\0' ? zmpi::transport::deriveLinkKeys(secret, encrypt) : nullptr;
}

// The rank's view of the job: joined through the rendezvous, as MPI_Init would.
class Rank {
 public:
  Rank()
      : rank_(envInt("ZMPI_RANK")),
        size_(envInt("ZMPI_SIZE")),
        client_(std::in_place, std::getenv("ZMPI_RENDEZVOUS"), zmpi::transport::jobHashOf(std::getenv("ZMPI_JOB_ID")),
                rank_, size_, jobKeys()) {
    client_->exchange("rank " + std::to_string(rank_), std::chrono::seconds(30));
  }
  int rank() const { return rank_; }
  int size() const { return size_; }

  // MPI_Finalize: tell the launcher, then close the connection so the event is flushed.
  int finalize() {
    client_->notify(RendezvousEvent::Finalizing);
    close();
    return 0;
  }
  // MPI_Abort: tell the launcher, flush, and leave at once.
  [[noreturn]] void abort(int code) {
    std::fflush(stdout);  // the launcher may end us as soon as it hears of the abort
    client_->notify(RendezvousEvent::Aborting, code);
    close();
    ::_exit(code);
  }
  void close() {
    client_.reset();
    context_.close();  // lingers until the last event is on the wire
  }

 private:
  int rank_;
  int size_;
  zmpi::transport::ContextOwner context_;
  std::optional<zmpi::transport::RendezvousClient> client_;
};

[[noreturn]] void block() {
  std::fflush(stdout);
  for (;;) ::pause();  // only a signal ends this: no spinning
}

long long nowMs() {
  timeval now;
  ::gettimeofday(&now, nullptr);
  return static_cast<long long>(now.tv_sec) * 1000 + now.tv_usec / 1000;
}

// A child that blocks forever with its output on /dev/null, so the launcher sees no open
// pipe of it. With `escape` it first leaves the job's process group and session (setsid),
// as a daemon would, and the rank waits until it has.
void startGrandchild(bool escape) {
  int ready[2];
  if (::pipe(ready) != 0) std::exit(93);
  const pid_t pid = ::fork();
  if (pid != 0) {
    ::close(ready[1]);
    char byte;
    while (::read(ready[0], &byte, 1) < 0 && errno == EINTR) {
    }
    ::close(ready[0]);
    return;
  }
  if (escape) ::setsid();
  const int null = ::open("/dev/null", O_RDWR);
  ::dup2(null, 1);
  ::dup2(null, 2);
  ::close(ready[0]);
  ::close(ready[1]);  // the rank's read returns: we are set up
  for (;;) ::pause();
}

// Line i of rank r: its length varies so lines straddle the pipe's buffer boundaries.
std::string lineFor(int rank, int index) {
  const size_t payload = static_cast<size_t>((index * 7919 + rank * 104729) % 3000);
  return "R:" + std::to_string(rank) + ":" + std::to_string(index) + ":" + std::string(payload, 'a' + rank % 26) +
         ":END";
}

int writeLines(Rank& rank, int count) {
  for (int i = 0; i < count; ++i) {
    const std::string line = lineFor(rank.rank(), i) + "\n";
    // Three write() calls per line: the launcher sees partial lines all the time.
    const size_t a = line.size() / 3;
    const size_t b = 2 * line.size() / 3;
    if (::write(1, line.data(), a) < 0 || ::write(1, line.data() + a, b - a) < 0 ||
        ::write(1, line.data() + b, line.size() - b) < 0) {
      return 91;
    }
  }
  return rank.finalize();
}

volatile sig_atomic_t abortRequested = 0;
void requestAbort(int) { abortRequested = 1; }

// Lines until killed. SIGUSR1 is taken only inside ppoll(), so one that arrives while the
// rank waits for room in its stdout pipe is never missed; a line (at most ~3 KiB, below
// PIPE_BUF) is written whole once the pipe has room, so a rank killed at any moment
// leaves no partial line.
int spew(Rank& rank, int code) {
  struct sigaction action {};
  action.sa_handler = requestAbort;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGUSR1, &action, nullptr);
  sigset_t usr1;
  sigset_t unblocked;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  ::sigprocmask(SIG_BLOCK, &usr1, &unblocked);
  sigdelset(&unblocked, SIGUSR1);
  for (int i = 0;; ++i) {
    const std::string line = lineFor(rank.rank(), i) + "\n";
    for (;;) {
      pollfd item{1, POLLOUT, 0};
      const int ready = ::ppoll(&item, 1, nullptr, &unblocked);
      if (abortRequested) rank.abort(code);
      if (ready > 0) break;
      if (ready < 0 && errno != EINTR) return 91;
    }
    if (::write(1, line.data(), line.size()) != static_cast<ssize_t>(line.size())) return 91;
  }
}

int verifyLines(int ranks, int count) {
  std::vector<int> next(static_cast<size_t>(ranks), 0);
  std::string line;
  int number = 0;
  while (std::getline(std::cin, line)) {
    ++number;
    int rank = -1;
    int index = -1;
    if (std::sscanf(line.c_str(), "R:%d:%d:", &rank, &index) != 2 || rank < 0 || rank >= ranks) {
      std::fprintf(stderr, "line %d is not a rank's line: %.80s\n", number, line.c_str());
      return 1;
    }
    if (line != lineFor(rank, index)) {
      std::fprintf(stderr, "line %d (rank %d, index %d) is damaged: %.80s...\n", number, rank, index, line.c_str());
      return 1;
    }
    if (index != next[static_cast<size_t>(rank)]) {
      std::fprintf(stderr, "line %d: rank %d's line %d came where %d was expected\n", number, rank, index,
                   next[static_cast<size_t>(rank)]);
      return 1;
    }
    ++next[static_cast<size_t>(rank)];
  }
  for (int r = 0; r < ranks; ++r) {
    if (count < 0 ? next[static_cast<size_t>(r)] == 0 : next[static_cast<size_t>(r)] != count) {
      std::fprintf(stderr, "rank %d: %d lines of %d\n", r, next[static_cast<size_t>(r)], count);
      return 1;
    }
  }
  std::printf("verified %d lines from %d ranks\n", number, ranks);
  return 0;
}

int echoStdin(Rank& rank) {
  if (rank.rank() == 0) {
    int lines = 0;
    std::string last;
    for (std::string line; std::getline(std::cin, line); ++lines) last = line;
    std::printf("rank 0 read %d lines, last '%s'\n", lines, last.c_str());
  } else {
    char byte;
    const ssize_t got = ::read(0, &byte, 1);
    std::printf("rank %d stdin %s\n", rank.rank(), got == 0 ? "empty" : "NOT EMPTY");
  }
  return rank.finalize();
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const std::string mode = args.empty() ? "ok" : args[0];
  auto arg = [&](size_t i) { return i < args.size() ? std::atoi(args[i].c_str()) : 0; };
  if (mode == "verify-lines") return verifyLines(arg(1), arg(2));

  if (const char* grandchild = std::getenv("FAKE_RANK_GRANDCHILD"); grandchild != nullptr) {
    startGrandchild(std::strcmp(grandchild, "setsid") == 0);
  }
  if (mode == "hang" && args.size() > 1 && args[1] == "stubborn") ::signal(SIGTERM, SIG_IGN);
  Rank rank;
  const bool chosen = rank.rank() == arg(mode == "crash" || mode == "nofinalize" ? 1 : 2);
  if (mode == "ok") {
    std::printf("rank %d of %d\n", rank.rank(), rank.size());
    return rank.finalize();
  }
  if (mode == "exit") {
    if (chosen) return arg(1);
    block();
  }
  if (mode == "abort") {
    if (chosen) {
      std::printf("rank %d aborting at %lld\n", rank.rank(), nowMs());
      rank.abort(arg(1));
    }
    block();
  }
  if (mode == "crash") {
    if (chosen) ::raise(SIGKILL);
    block();
  }
  if (mode == "nofinalize") {
    if (chosen) return 0;
    block();
  }
  if (mode == "hang") {
    std::printf("ready %d\n", rank.rank());
    block();
  }
  if (mode == "lines") return writeLines(rank, arg(1));
  if (mode == "spew") return spew(rank, arg(1));
  if (mode == "stdin") return echoStdin(rank);
  std::fprintf(stderr, "fake_rank: unknown mode '%s'\n", mode.c_str());
  return 92;
}
