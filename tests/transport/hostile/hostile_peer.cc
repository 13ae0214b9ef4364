// hostile_peer: connects to a live job's endpoints the way a stranger could, and sends
// what a rank and the rendezvous must reject (tests/transport/hostile/hostile_rank.sh).
//   hostile_peer JOB_ID ROUNDS RENDEZVOUS_ENDPOINT RANK_ENDPOINT...
// To each rank endpoint (a plain zmq PUSH, and for tcp also a raw TCP socket): garbage,
// truncated headers, a missing payload frame, huge declared lengths (ROUNDS times), an
// unknown protocol version, extra frames, a well-formed message of another job, a
// ZMTP frame declaring a terabyte; then a sentinel (a well-formed message whose sender
// is rank -7, which the rank rejects and logs last: "sender -7"). To the rendezvous (a
// DEALER): the same kinds of bytes, a hello larger than its limit, then a sentinel hello
// from participant 999. With JOB_ID empty, messages carry another job's hash only.
// With FORGE=1 in the environment, each rank endpoint also gets a message that would be
// matched if it arrived (MPI_COMM_WORLD, source 1, tag 4242): against an authenticated job
// it must never arrive.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "mpi/core/envelope.h"
#include "transport/context.h"
#include "transport/rendezvous_codec.h"
#include "transport/socket.h"
#include "transport/tsan_annotations.h"
#include "transport/wire.h"

namespace {

using namespace zmpi::transport;

using Frames = std::vector<std::string>;

std::string bytesOf(const WireHeader& header) {
  return std::string(reinterpret_cast<const char*>(&header), sizeof header);
}

WireHeader header(uint64_t job, uint16_t kind, uint64_t payloadBytes) {
  WireHeader h;
  h.kind = kind;
  h.jobHash = job;
  h.payloadBytes = payloadBytes;
  return h;
}

WireHeader withEnvelope(WireHeader h, int32_t sender) {
  zmpi::mpi::Envelope envelope;
  envelope.senderWorld = sender;
  envelope.totalBytes = uint64_t{1} << 40;
  std::memcpy(h.envelope.data(), &envelope, sizeof envelope);
  return h;
}

// The messages every endpoint gets; `job` is the job's hash (or another one).
std::vector<Frames> battery(uint64_t job, uint64_t otherJob, int rounds, uint16_t kind) {
  std::vector<Frames> out;
  out.push_back({std::string(100, '\x5a')});
  out.push_back({"GET / HTTP/1.1\r\nHost: x\r\n\r\n"});
  out.push_back({bytesOf(header(job, kind, 0)).substr(0, 40)});  // truncated header
  out.push_back({bytesOf(header(job, kind, 100))});              // missing payload frame
  out.push_back({bytesOf(header(job, kind, 10)), "abc"});        // payload shorter than declared
  out.push_back({bytesOf(header(job, kind, 0)), "", "extra"});   // extra frames
  WireHeader version = header(job, kind, 0);
  version.version = 99;
  out.push_back({bytesOf(version)});
  WireHeader magic = header(job, kind, 0);
  magic.magic = 0x12345678;
  out.push_back({bytesOf(magic)});
  out.push_back({bytesOf(header(otherJob, kind, 5)), "hello"});  // another job, well formed
  for (int i = 0; i < rounds; ++i) {
    out.push_back({bytesOf(header(job, kind, uint64_t{1} << 62)), "x"});  // huge declared, beyond the limit
    out.push_back({bytesOf(header(job, kind, uint64_t{1} << 34))});       // 16 GiB declared, nothing sent
  }
  return out;
}

// A peer that never completes the handshake (an authenticated job) leaves the messages
// queued until the high-water mark; then a send times out (SocketOptions::sendTimeout)
// and the rest is dropped.
int sendAll(Socket& socket, const std::vector<Frames>& messages) {
  int sent = 0;
  for (const Frames& frames : messages) {
    if (!zmqSend(socket.raw(), zmq::buffer(frames[0]),
                 frames.size() > 1 ? zmq::send_flags::sndmore : zmq::send_flags::none)) {
      return sent;
    }
    // The first frame is queued, so the rest of the message is accepted at once.
    for (size_t i = 1; i < frames.size(); ++i) {
      zmqSend(socket.raw(), zmq::buffer(frames[i]),
              i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
    }
    ++sent;
  }
  return sent;
}

bool rawTcp(const std::string& endpoint, const std::string& bytes) {
  // tcp://A.B.C.D:PORT (loopback only: the test binds 127.0.0.1).
  const size_t colon = endpoint.rfind(':');
  const std::string host = endpoint.substr(6, colon - 6);
  const int port = std::atoi(endpoint.c_str() + colon + 1);
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (fd < 0 || inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    std::fprintf(stderr, "hostile_peer: cannot connect to %s\n", endpoint.c_str());
    if (fd >= 0) ::close(fd);
    return false;
  }
  [[maybe_unused]] ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  // Read until the peer closes or a short while passes: it must not keep waiting for the
  // terabyte we declared. (Bounded by SO_RCVTIMEO.)
  timeval timeout{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  char buffer[256];
  while (::recv(fd, buffer, sizeof buffer, 0) > 0) {
  }
  ::close(fd);
  return true;
}

// A ZMTP 3.0 NULL-mechanism greeting and READY as a PUSH peer, then a frame declaring 1 TiB.
std::string zmtpHugeFrame() {
  std::string out("\xff\0\0\0\0\0\0\0\x01\x7f", 10);
  out += std::string("\x03\x00", 2);
  out += std::string("NULL") + std::string(16, '\0');
  out += std::string(1, '\0') + std::string(31, '\0');
  std::string ready = "\x05READY";
  const std::string name = "Socket-Type";
  ready += static_cast<char>(name.size()) + name + std::string("\0\0\0\x04", 4) + "PUSH";
  out += '\x04';
  out += static_cast<char>(ready.size());
  out += ready;
  out += '\x02';  // long frame, no more
  const uint64_t size = uint64_t{1} << 40;
  for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((size >> shift) & 0xff);
  out += std::string(4096, 'A');
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: hostile_peer JOB_ID ROUNDS RENDEZVOUS_ENDPOINT RANK_ENDPOINT...\n");
    return 2;
  }
  const std::string jobId = argv[1];
  const int rounds = std::atoi(argv[2]);
  const std::string rendezvous = argv[3];
  const uint64_t otherJob = jobHashOf("some-other-job");
  const uint64_t job = jobId.empty() ? otherJob : jobHashOf(jobId);
  ContextOwner context;
  const char* forgeVariable = std::getenv("FORGE");
  const bool forge = forgeVariable != nullptr && *forgeVariable == '1';
  SocketOptions options;
  // An unauthenticated job takes every message, as fast as its ranks reject and log them (all
  // the endpoints at once, below): a send waits up to 30 s for room, and before exiting the
  // peer flushes what is queued (the sentinels come last) for up to 30 s. An authenticated
  // job takes none (FORGE is set for those): a send stops after 2 s, the flush after 3 s.
  options.linger = std::chrono::milliseconds(forge ? 3000 : 30000);
  options.sendTimeout = std::chrono::milliseconds(forge ? 2000 : 30000);

  // Each endpoint gets its messages from a thread of its own (a socket each; the context is
  // shared): against an authenticated job every send to an endpoint waits out the send
  // timeout, and the endpoints' waits then overlap instead of adding up (about 4 s, not 4 s
  // per endpoint).
  std::atomic<int> sentinels{0};
  // The sockets stay open until every thread is done, as one peer's would. Every socket is
  // made first (the vector never grows while a thread holds one of them).
  const size_t endpoints = static_cast<size_t>(argc - 4);
  std::vector<Socket> sockets;
  for (size_t i = 0; i < endpoints; ++i) sockets.emplace_back(zmq::socket_type::push, options);
  if (!rendezvous.empty()) {
    sockets.emplace_back(zmq::socket_type::dealer, options);  // the battery
    sockets.emplace_back(zmq::socket_type::dealer, options);  // the sentinel
  }
  std::vector<std::thread> threads;
  for (size_t i = 0; i < endpoints; ++i) {
    threads.emplace_back([&, i, endpoint = std::string(argv[i + 4])] {
      Socket& push = sockets[i];
      push.connect(endpoint);
      if (forge) {
        zmpi::mpi::Envelope envelope;
        envelope.source = 1;
        envelope.tag = 4242;  // no tag the job uses: only the final probe can see it
        envelope.senderWorld = 1;
        WireHeader forged = header(job, 1, 6);
        std::memcpy(forged.envelope.data(), &envelope, sizeof envelope);
        sendAll(push, {{bytesOf(forged), "forged"}});
      }
      sendAll(push, battery(job, otherJob, rounds, 1));
      sendAll(push, {{bytesOf(withEnvelope(header(job, 3, 0), -7))}});  // the sentinel: last
      ++sentinels;
      if (endpoint.starts_with("tcp://")) {
        rawTcp(endpoint, std::string(64, '\x01'));  // not a ZMTP greeting
        rawTcp(endpoint, zmtpHugeFrame());
      }
    });
  }
  if (!rendezvous.empty()) {
    threads.emplace_back([&] {
      Socket& dealer = sockets[endpoints];
      Socket& sentinel = sockets[endpoints + 1];
      dealer.connect(rendezvous);
      sendAll(dealer, battery(job, otherJob, rounds, kRendezvousHello));
      WireHeader big = makeRendezvousHeader(kRendezvousHello, job, {0, 1, 0, 0}, kMaxRendezvousBlobBytes + 1);
      sendAll(dealer, {{bytesOf(big), std::string(kMaxRendezvousBlobBytes + 1, 'b')}});  // over the limit
      // A new connection: the one above is dropped by zmq for the oversized frame.
      sentinel.connect(rendezvous);
      sendAll(sentinel, {{bytesOf(makeRendezvousHeader(kRendezvousHello, job, {999, 1, 0, 0}, 0))}});
      if (rendezvous.starts_with("tcp://")) rawTcp(rendezvous, zmtpHugeFrame());
    });
  }
  for (std::thread& thread : threads) thread.join();
  sockets.clear();
  context.close();
  std::printf("hostile_peer: sent to %d rank endpoint(s)%s\n", sentinels.load(),
              rendezvous.empty() ? "" : " and the rendezvous");
  return 0;
}
