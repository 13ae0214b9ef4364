// Rendezvous: N participants (threads here, processes in real jobs) gather their blobs
// and all receive the same table; a start-up that never completes names who is missing.
#include "transport/rendezvous.h"

#include <catch2/catch.hpp>
#include <thread>

#include "test_util.h"
#include "transport/context.h"
#include "transport/errors.h"

namespace zmpi::transport::test {
namespace {

// Runs `participants` exchanges in threads, one per index in `present`.
std::vector<std::string> runParticipants(const std::string& endpoint, uint64_t job, int participants,
                                         const std::vector<int>& present, std::chrono::milliseconds timeout,
                                         std::vector<std::vector<std::string>>& tables) {
  std::vector<std::string> errors(present.size());
  tables.assign(present.size(), {});
  std::vector<std::thread> threads;
  for (size_t k = 0; k < present.size(); ++k) {
    threads.emplace_back([&, k] {
      try {
        RendezvousClient client(endpoint, job, present[k], participants);
        tables[k] = client.exchange("blob-" + std::to_string(present[k]), timeout);
      } catch (const std::exception& error) {
        errors[k] = error.what();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  return errors;
}

TEST_CASE("rendezvous gathers and broadcasts the table to N threads", "[rendezvous]") {
  const Kind kind = GENERATE(Kind::Tcp, Kind::Ipc, Kind::Inproc);
  INFO("transport " << kindName(kind));
  ContextOwner context;
  constexpr int kParticipants = 8;
  const uint64_t job = jobHashOf("rendezvous-gather");
  RendezvousServer server(endpointPattern(kind), job, kParticipants, 10s);
  std::vector<int> everyone;
  for (int i = kParticipants - 1; i >= 0; --i) everyone.push_back(i);  // arrival order is irrelevant
  std::vector<std::vector<std::string>> tables;
  const auto errors = runParticipants(server.endpoint(), job, kParticipants, everyone, 10s, tables);
  std::vector<std::string> expected;
  for (int i = 0; i < kParticipants; ++i) expected.push_back("blob-" + std::to_string(i));
  for (size_t k = 0; k < everyone.size(); ++k) {
    INFO("participant " << everyone[k]);
    CHECK(errors[k].empty());
    CHECK(tables[k] == expected);
  }
  CHECK(server.rejectedCount() == 0);
  server.stop();
}

TEST_CASE("rendezvous start-up timeout names the missing participants", "[rendezvous][timeout]") {
  ContextOwner context;
  const uint64_t job = jobHashOf("rendezvous-missing");
  RendezvousServer server("tcp://127.0.0.1:*", job, 4, 2000ms);
  std::vector<std::vector<std::string>> tables;
  const auto start = std::chrono::steady_clock::now();
  const auto errors = runParticipants(server.endpoint(), job, 4, {0, 2}, 10s, tables);
  // The server's verdict arrives at its own deadline, long before the clients' 10 s.
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  for (const auto& error : errors) {
    CHECK_THAT(error, Catch::Contains("never heard from participant(s) 1,3"));
    CHECK_THAT(error, Catch::Contains("2000 ms"));
  }
  // A straggler after the verdict gets the same error at once, not silence.
  RendezvousClient late(server.endpoint(), job, 1, 4);
  try {
    late.exchange("late", 10s);
    FAIL("expected the start-up error");
  } catch (const TimeoutError& error) {
    FAIL("got a timeout instead of the server's verdict: " << error.what());
  } catch (const TransportError& error) {
    CHECK_THAT(error.what(), Catch::Contains("1,3"));
  }
  server.stop();
}

TEST_CASE("rendezvous answers a repeated hello with the same table", "[rendezvous]") {
  ContextOwner context;
  const uint64_t job = jobHashOf("rendezvous-repeat");
  RendezvousServer server("tcp://127.0.0.1:*", job, 2, 10s);
  std::vector<std::vector<std::string>> tables;
  const auto errors = runParticipants(server.endpoint(), job, 2, {0, 1}, 10s, tables);
  REQUIRE(errors == std::vector<std::string>{"", ""});
  RendezvousClient again(server.endpoint(), job, 0, 2);
  CHECK(again.exchange("ignored", 10s) == tables[0]);
  server.stop();
}

TEST_CASE("rendezvous delivers participant events to the creator", "[rendezvous]") {
  ContextOwner context;
  const uint64_t job = jobHashOf("rendezvous-events");
  Latch seen(1);
  int who = -1, code = -1;
  RendezvousEvent what{};
  RendezvousServer server("tcp://127.0.0.1:*", job, 1, 10s, [&](int participant, RendezvousEvent event, int c) {
    who = participant;
    what = event;
    code = c;
    seen.countDown();
  });
  RendezvousClient client(server.endpoint(), job, 0, 1);
  CHECK(client.exchange("only", 10s) == std::vector<std::string>{"only"});
  client.notify(RendezvousEvent::Aborting, 42);
  REQUIRE(seen.waitFor(10s));
  server.stop();  // joins the server thread: its writes above are visible now
  CHECK(who == 0);
  CHECK(what == RendezvousEvent::Aborting);
  CHECK(code == 42);
}

TEST_CASE("rendezvous client times out against a server that never answers", "[rendezvous][timeout]") {
  ContextOwner context;
  // A ROUTER that is bound but never reads: the hello goes out, no table comes back.
  Socket silent(zmq::socket_type::router, quickSocket());
  const std::string endpoint = silent.bind("tcp://127.0.0.1:*");
  RendezvousClient client(endpoint, jobHashOf("rendezvous-silent"), 0, 2);
  const auto start = std::chrono::steady_clock::now();
  try {
    client.exchange("x", 300ms);
    FAIL("expected a TimeoutError");
  } catch (const TimeoutError& error) {
    CHECK_THAT(error.what(), Catch::Contains(endpoint));
    CHECK_THAT(error.what(), Catch::Contains("300 ms"));
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(elapsed >= 300ms);
  CHECK(elapsed < 3s);
}

}  // namespace
}  // namespace zmpi::transport::test
