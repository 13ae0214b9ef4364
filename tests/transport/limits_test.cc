// Size limits where a declared length could make a receiver allocate: rendezvous blobs
// and tables (rendezvous_codec.h) and the frame limit zmq enforces before allocating.
#include <catch2/catch.hpp>

#include "test_util.h"
#include "transport/context.h"
#include "transport/errors.h"
#include "transport/rendezvous.h"

namespace zmpi::transport::test {
namespace {

std::vector<zmq::message_t> helloFrames(uint64_t job, int participant, int participants, size_t blobBytes) {
  WireHeader header = makeRendezvousHeader(kRendezvousHello, job, {participant, participants, 0, 0}, blobBytes);
  std::vector<zmq::message_t> frames;
  frames.emplace_back(&header, sizeof header);
  frames.emplace_back(std::string(blobBytes, 'b'));
  return frames;
}

TEST_CASE("a rendezvous hello larger than the blob limit is refused", "[rendezvous][limits]") {
  const uint64_t job = jobHashOf("limits");
  CHECK(decodeRendezvousRequest(helloFrames(job, 0, 2, kMaxRendezvousBlobBytes), job, 2).blob.size() ==
        kMaxRendezvousBlobBytes);
  CHECK_THROWS_AS(decodeRendezvousRequest(helloFrames(job, 0, 2, kMaxRendezvousBlobBytes + 1), job, 2),
                  MalformedMessage);
}

TEST_CASE("a rendezvous table entry declaring more bytes than exist or allowed is refused", "[rendezvous][limits]") {
  std::string table = encodeRendezvousTable({"a", "bb"});
  CHECK(decodeRendezvousTable(table.data(), table.size(), 2) == std::vector<std::string>{"a", "bb"});
  CHECK_THROWS_AS(decodeRendezvousTable(table.data(), table.size(), 3), MalformedMessage);
  CHECK_THROWS_AS(decodeRendezvousTable(table.data(), table.size() - 1, 2), MalformedMessage);
  const uint32_t lie = 0xfffffff0;
  std::string lying(reinterpret_cast<const char*>(&lie), sizeof lie);
  lying += "abcd";
  CHECK_THROWS_AS(decodeRendezvousTable(lying.data(), lying.size(), 1), MalformedMessage);
  std::string big = encodeRendezvousTable({std::string(kMaxRendezvousBlobBytes + 1, 'x')});
  CHECK_THROWS_AS(decodeRendezvousTable(big.data(), big.size(), 1), MalformedMessage);
}

TEST_CASE("the rendezvous server drops an oversized hello and still forms the job", "[rendezvous][limits]") {
  ContextOwner context;
  const uint64_t job = jobHashOf("limits-server");
  RendezvousServer server("tcp://127.0.0.1:*", job, 1, 10s);
  {
    Socket dealer(zmq::socket_type::dealer, quickSocket());
    dealer.connect(server.endpoint());
    auto frames = helloFrames(job, 0, 1, 4 * kMaxRendezvousBlobBytes);
    zmqSend(dealer.raw(), frames[0], zmq::send_flags::sndmore);
    zmqSend(dealer.raw(), frames[1], zmq::send_flags::none);
    // zmq drops the connection at the frame header (ZMQ_MAXMSGSIZE): no reply ever comes.
    zmq::pollitem_t items[] = {{dealer.raw().handle(), 0, ZMQ_POLLIN, 0}};
    CHECK(zmqPoll(items, 1, 300ms) == 0);
  }
  RendezvousClient client(server.endpoint(), job, 0, 1);
  CHECK(client.exchange("me", 10s) == std::vector<std::string>{"me"});
  server.stop();
}

}  // namespace
}  // namespace zmpi::transport::test
