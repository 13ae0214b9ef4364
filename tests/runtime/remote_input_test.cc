// zmpirun's stdin for a remote rank (runtime/common/remote_input.h), both ends in one
// poll loop with the messages handed across directly: everything arrives, in order, and
// neither end ever holds more than the window, whatever the rank does.
#include "runtime/common/remote_input.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <deque>
#include <random>

#include "runtime/common/agent_codec.h"

using namespace zmpi::runtime;

namespace {

// A source file of `bytes` pseudo-random bytes, opened for reading (unlinked at once).
UniqueFd sourceFile(size_t bytes, std::string& content) {
  std::mt19937 random(42);
  content.resize(bytes);
  for (char& c : content) c = static_cast<char>(random());
  char path[] = "/tmp/remote_input_test_XXXXXX";
  UniqueFd fd(::mkstemp(path));
  REQUIRE(fd);
  ::unlink(path);
  REQUIRE(writeAll(fd.get(), content));
  REQUIRE(::lseek(fd.get(), 0, SEEK_SET) == 0);
  return fd;
}

// zmpirun's sender, zmpid's sink and the rank's end of the stdin pipe, wired directly.
struct Link {
  std::deque<proto::Input> toAgent;
  InputSender sender;
  InputSink sink;
  UniqueFd rankEnd;  // what the rank reads
  uint64_t maxInFlight = 0;
  uint64_t maxQueued = 0;

  explicit Link(int source) {
    ::signal(SIGPIPE, SIG_IGN);  // as zmpid does: a closed pipe is EPIPE, not death
    Pipe pipe = makePipe();
    rankEnd = std::move(pipe.read);
    sink = InputSink(0, std::move(pipe.write));
    sender = InputSender(source, 0, [this](proto::Input&& input) {
      toAgent.push_back(std::move(input));
      return true;
    });
  }

  // One turn: deliver what the sender sent, poll both ends (and the rank's end if the rank
  // reads), return the credit. Returns what the rank read this turn; `progress` tells
  // whether anything happened at all.
  std::string turn(bool rankReads, bool& progress) {
    progress = !toAgent.empty();
    while (!toAgent.empty()) {
      REQUIRE(sink.accept(toAgent.front()).empty());
      toAgent.pop_front();
    }
    PollSet set;
    sender.prepare(set);
    sink.prepare(set);
    size_t rankIndex = static_cast<size_t>(-1);
    if (rankReads && rankEnd) rankIndex = set.addFd(rankEnd.get(), ZMQ_POLLIN);
    set.wait(std::chrono::milliseconds(0));
    sender.handle(set);
    sink.handle(set);
    std::string read;
    if (rankIndex != static_cast<size_t>(-1) && set.readable(rankIndex)) {
      read.resize(65536);
      const ssize_t got = ::read(rankEnd.get(), read.data(), read.size());
      REQUIRE(got >= 0);
      read.resize(static_cast<size_t>(got));
      if (got == 0) rankEnd.reset();  // end of file
      progress = true;
    }
    if (auto credit = sink.takeCredit()) {
      sender.onCredit(*credit);
      progress = true;
    }
    progress = progress || !toAgent.empty();
    maxInFlight = std::max(maxInFlight, sender.inFlight());
    maxQueued = std::max(maxQueued, sink.queued());
    return read;
  }
};

}  // namespace

TEST_CASE("remote input: a few MiB arrive whole and in order, within the window") {
  std::string content;
  UniqueFd source = sourceFile(3 * 1024 * 1024 + 12345, content);
  Link link(source.get());
  std::string received;
  bool progress = true;
  for (int turns = 0; link.rankEnd && turns < 100000; ++turns) received += link.turn(true, progress);
  CHECK_FALSE(link.rankEnd);  // the rank saw end of file
  CHECK(received.size() == content.size());
  CHECK(received == content);
  CHECK_FALSE(link.sender.active());
  CHECK(link.maxInFlight <= kInputWindow);
  CHECK(link.maxQueued <= kInputWindow);
}

TEST_CASE("remote input: a rank that does not read holds back zmpirun, not memory") {
  std::string content;
  UniqueFd source = sourceFile(8 * 1024 * 1024, content);
  Link link(source.get());
  bool progress = true;
  int turns = 0;
  while (progress && turns++ < 10000) link.turn(false, progress);
  CHECK_FALSE(progress);  // stalled: the window is full and the pipe is full
  CHECK(link.sender.active());
  CHECK(link.sender.inFlight() <= kInputWindow);
  CHECK(link.sink.queued() <= kInputWindow);
  // zmpirun read no more than the window plus what the pipe holds.
  const off_t consumed = ::lseek(source.get(), 0, SEEK_CUR);
  CHECK(consumed <= static_cast<off_t>(kInputWindow + 1024 * 1024));
  CHECK(consumed < static_cast<off_t>(content.size()));
}

TEST_CASE("remote input: a rank that closes its stdin stops zmpirun's reading (EPIPE)") {
  std::string content;
  UniqueFd source = sourceFile(4 * 1024 * 1024, content);
  Link link(source.get());
  bool progress = true;
  link.turn(true, progress);
  link.rankEnd.reset();  // the rank closes its stdin (or exits)
  for (int turns = 0; progress && turns < 10000; ++turns) link.turn(false, progress);
  CHECK_FALSE(link.sink.pipeOpen());
  CHECK_FALSE(link.sender.active());
  CHECK(link.sink.queued() == 0);
  // Input already on its way is dropped quietly; nothing more is sent.
  proto::Input late;
  late.set_rank(0);
  late.set_data("late");
  CHECK(link.sink.accept(late).empty());
  CHECK_FALSE(link.sink.takeCredit());
}

TEST_CASE("remote input: the sink refuses input that breaks the protocol and closes the rank's stdin") {
  auto sink = [] {
    Pipe pipe = makePipe();
    return InputSink(2, std::move(pipe.write));
  };
  proto::Input input;
  input.set_rank(2);
  input.set_data("ok");
  {
    InputSink s = sink();
    proto::Input other = input;
    other.set_rank(0);
    CHECK_FALSE(s.accept(other).empty());
    CHECK_FALSE(s.pipeOpen());
    auto credit = s.takeCredit();
    REQUIRE(credit);
    CHECK(credit->closed());
    CHECK_FALSE(s.takeCredit());  // reported once
  }
  {
    InputSink s = sink();
    proto::Input big = input;
    big.set_data(std::string(kMaxInputChunk + 1, 'x'));
    CHECK_FALSE(s.accept(big).empty());
    CHECK_FALSE(s.pipeOpen());
  }
  {
    InputSink s = sink();
    proto::Input piece = input;
    piece.set_data(std::string(kMaxInputChunk, 'x'));
    std::string why;
    for (int i = 0; i < 100 && why.empty(); ++i) why = s.accept(piece);  // nobody writes: the queue fills
    CHECK_THAT(why, Catch::Contains("window"));
    CHECK(s.queued() == 0);  // dropped with the stdin
  }
  {
    InputSink s = sink();
    proto::Input end = input;
    end.set_end(true);
    CHECK(s.accept(end).empty());
    CHECK_FALSE(s.accept(input).empty());  // after the end
  }
  InputSink none;
  CHECK_FALSE(none.accept(input).empty());
}

TEST_CASE("remote input: credit beyond what is in flight does not grow the window") {
  std::string content;
  UniqueFd source = sourceFile(1000, content);
  int sent = 0;
  InputSender sender(source.get(), 0, [&](proto::Input&&) { return ++sent > 0; });
  proto::InputCredit credit;
  credit.set_bytes(UINT64_MAX);
  sender.onCredit(credit);
  CHECK(sender.inFlight() == 0);
  CHECK(sender.active());
  credit.set_closed(true);
  sender.onCredit(credit);
  CHECK_FALSE(sender.active());
}
