// Fuzz target: what a rank does with bytes from its endpoints after the wire decoder
// (tests/transport/fuzz covers that one): the fabric's admission check and the
// point-to-point engine's handling of every message kind (matching, unexpected queue,
// Rts/Cts/Data/SyncAck bookkeeping), and the rendezvous table's PeerInfo entries.
//
// Input: byte 0 even -> engine path, odd -> peer-table path.
// Engine path: rank 0 of a mock world of 4 (eager limit 16 bytes, so sends exercise the
// rendezvous protocol); the rest is a sequence of operations, each an opcode byte:
//   %4 == 0  a message: 72 header bytes, a length byte n and n payload bytes, decoded and
//            admitted exactly as ZmqFabric does, then given to Engine::onMessage;
//   %4 == 1  post a receive: source byte (%5 - 1, -1 = any), tag byte (255 = any), size byte;
//   %4 == 2  start a send to world rank (byte % 4) of (byte) bytes, tag 0;
//   %4 == 3  probe for anything and receive it into a buffer of (byte) bytes.
// Peer-table path: the rest is a rendezvous table of 1..3 entries (rendezvous_codec.h
// encoding, entry count from byte 0), decoded into peers as MPI_Init does.
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "mpi/core/engine.h"
#include "mpi/core/mock_fabric.h"
#include "mpi/core/peer_table.h"
#include "mpi/core/request.h"
#include "mpi/datatype/predefined.h"
#include "tests/transport/fuzz/fuzz_input.h"
#include "transport/errors.h"
#include "transport/frames.h"
#include "transport/rendezvous_codec.h"

namespace {

using namespace zmpi;
using namespace zmpi::mpi;
constexpr int kWorld = 4;

struct Reader {
  const uint8_t* data;
  size_t left;
  bool take(size_t n, const uint8_t** out) {
    if (left < n) return false;
    *out = data;
    data += n;
    left -= n;
    return true;
  }
  bool byte(uint8_t* out) {
    const uint8_t* p;
    if (!take(1, &p)) return false;
    *out = *p;
    return true;
  }
};

struct Buffers {
  std::vector<std::unique_ptr<Request>> requests;
  std::vector<std::unique_ptr<std::vector<char>>> memory;
  Request& make(Request::Kind kind, size_t bytes, int peer, int tag) {
    memory.push_back(std::make_unique<std::vector<char>>(bytes, 'x'));
    auto request = std::make_unique<Request>(kind);
    request->buffer = memory.back()->data();
    request->count = static_cast<int>(bytes);
    request->type = byteType();
    request->peer = peer;
    request->peerWorld = peer;
    request->tag = tag;
    requests.push_back(std::move(request));
    return *requests.back();
  }
};

void enginePath(Reader in) {
  const uint64_t job = transport::jobHashOf("fuzz-job");
  auto network = std::make_shared<MockNetwork>(kWorld);
  Buffers buffers;  // outlives the engine, which points at the requests
  {
    MockFabric fabric(network, 0);
    Engine engine(0, kWorld, job, fabric);
    uint8_t op;
    while (in.byte(&op)) {
      switch (op % 4) {
        case 0: {
          const uint8_t* header;
          const uint8_t* payload;
          uint8_t length;
          if (!in.take(sizeof(transport::WireHeader), &header) || !in.byte(&length) || !in.take(length, &payload))
            return;
          std::vector<zmq::message_t> frames;
          frames.emplace_back(header, sizeof(transport::WireHeader));
          if (length > 0) frames.emplace_back(payload, length);
          try {
            transport::WireMessage message = transport::decodeMessage(std::move(frames), job);
            if (!implausibleMessage(message.header, kWorld).empty()) break;
            engine.onMessage(std::move(message));
          } catch (const transport::MalformedMessage&) {
          }
          break;
        }
        case 1: {
          uint8_t source, tag, bytes;
          if (!in.byte(&source) || !in.byte(&tag) || !in.byte(&bytes)) return;
          Request& request = buffers.make(Request::Kind::Recv, bytes, source % 5 - 1, tag == 255 ? MPI_ANY_TAG : tag);
          engine.startRecv(request);
          break;
        }
        case 2: {
          uint8_t to, bytes;
          if (!in.byte(&to) || !in.byte(&bytes)) return;
          Request& request = buffers.make(Request::Kind::Send, bytes, to % kWorld, 0);
          engine.startSend(request);
          break;
        }
        default: {
          uint8_t bytes;
          if (!in.byte(&bytes)) return;
          MPI_Status status;
          if (auto message = engine.improbe(0, MPI_ANY_SOURCE, MPI_ANY_TAG, &status)) {
            Request& request = buffers.make(Request::Kind::Recv, bytes, MPI_ANY_SOURCE, MPI_ANY_TAG);
            engine.startMatchedRecv(request, std::move(message));
          }
        }
      }
    }
    // Messages still queued may hold zero-copy payloads whose release completes a request
    // of this engine: free them while it lives.
    for (int rank = 0; rank < kWorld; ++rank) {
      while (network->take(rank, std::chrono::milliseconds(0))) {
      }
    }
  }
}

void peerTablePath(const uint8_t* data, size_t size, int entries) {
  try {
    auto blobs = transport::decodeRendezvousTable(data, size, entries);
    auto peers = decodePeerTable(blobs, entries);
    ZMPI_FUZZ_CHECK(static_cast<int>(peers.size()) == entries);
    for (const auto& peer : peers) ZMPI_FUZZ_CHECK(peer.tcpEndpoint.starts_with("tcp://"));
  } catch (const transport::MalformedMessage&) {
  } catch (const PeerTableError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool configured = [] {
    setenv("ZMPI_EAGER_LIMIT", "16", 1);
    google::protobuf::SetLogHandler(nullptr);  // malformed strings are expected here, not news
    return true;
  }();
  (void)configured;
  if (size == 0) return 0;
  if (data[0] % 2 == 0) {
    enginePath(Reader{data + 1, size - 1});
  } else {
    peerTablePath(data + 1, size - 1, 1 + (data[0] >> 1) % 3);
  }
  return 0;
}
