// transport_demo: the transport layer end to end in one process, as scripts/run-main.sh
// shows it until zmpirun exists. An echo server answers sync calls and counts async
// messages from several client threads; then the threads meet at a rendezvous and each
// prints the table every participant received.
//   transport_demo [clients] [messages-per-client]
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "transport/client.h"
#include "transport/context.h"
#include "transport/latch.h"
#include "transport/rendezvous.h"
#include "transport/server.h"

namespace zt = zmpi::transport;

namespace {

constexpr uint16_t kEcho = 1;
constexpr uint16_t kCount = 2;

class EchoServer : public zt::MessageServer {
 public:
  EchoServer(const zt::ServerOptions& options, int expectedAsync) : MessageServer(options), done_(expectedAsync) {}
  ~EchoServer() override { stop(); }
  bool waitForAsync(std::chrono::seconds timeout) { return done_.waitFor(timeout); }

 protected:
  void handleAsync(zt::WireMessage&&) override { done_.countDown(); }
  zt::WireMessage handleSync(zt::WireMessage&& request) override { return std::move(request); }

 private:
  zt::Latch done_;
};

}  // namespace

int main(int argc, char** argv) {
  const int clients = argc > 1 ? std::atoi(argv[1]) : 4;     // NOLINT(cert-err34-c): a demo's own arguments
  const int messages = argc > 2 ? std::atoi(argv[2]) : 100;  // NOLINT(cert-err34-c)
  if (clients < 1 || messages < 1) {
    std::fprintf(stderr, "usage: transport_demo [clients>=1] [messages>=1]\n");
    return 2;
  }
  zt::ContextOwner context;
  const uint64_t job = zt::jobHashOf("transport-demo");
  int failures = 0;
  {
    zt::ServerOptions options;
    options.jobHash = job;
    options.name = "echo";
    EchoServer server(options, clients * messages);
    server.start();
    zt::RendezvousServer rendezvous("tcp://127.0.0.1:*", job, clients, std::chrono::seconds(10));
    std::printf("echo server: async %s, sync %s; rendezvous %s\n", server.asyncEndpoint().c_str(),
                server.syncEndpoint().c_str(), rendezvous.endpoint().c_str());

    std::atomic<int> echoed{0};
    std::atomic<int> errors{0};
    std::vector<std::string> tables(clients);
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c) {
      threads.emplace_back([&, c] {
        try {
          zt::MessageClient client({server.asyncEndpoint(), server.syncEndpoint(), job, {}});
          for (int i = 0; i < messages; ++i) {
            const std::string text = "client " + std::to_string(c) + " message " + std::to_string(i);
            zt::WireHeader header;
            header.kind = kCount;
            client.asyncSend(header, zt::makePayload(text.data(), text.size()));
            header.kind = kEcho;
            auto reply = client.syncSend(header, zt::makePayload(text.data(), text.size()), std::chrono::seconds(5));
            if (reply.payload.to_string() == text) echoed.fetch_add(1);
          }
          zt::RendezvousClient peer(rendezvous.endpoint(), job, c, clients);
          for (const auto& blob : peer.exchange("thread-" + std::to_string(c), std::chrono::seconds(10))) {
            tables[c] += blob + " ";
          }
        } catch (const std::exception& error) {
          std::fprintf(stderr, "client %d: %s\n", c, error.what());
          errors.fetch_add(1);
        }
      });
    }
    for (auto& thread : threads) thread.join();
    const bool allAsync = server.waitForAsync(std::chrono::seconds(10));
    std::printf("sync echoes: %d/%d, async messages all handled: %s\n", echoed.load(), clients * messages,
                allAsync ? "yes" : "no");
    for (int c = 0; c < clients; ++c) std::printf("participant %d got table: %s\n", c, tables[c].c_str());
    failures = errors.load() + (echoed.load() != clients * messages) + !allAsync;
    rendezvous.stop();
    server.stop();
  }
  context.close();
  std::printf(failures == 0 ? "transport demo: OK\n" : "transport demo: FAILED\n");
  return failures == 0 ? 0 : 1;
}
