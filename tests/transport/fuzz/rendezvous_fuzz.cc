// Fuzz target: the rendezvous decoders (transport/rendezvous_codec.h). Input format:
// fuzz_input.h; selector % 3 picks the path:
//   0  the server: frames from a participant (after the ROUTER identity) for a job of 4;
//   1  a participant: the server's reply to its hello (table or error);
//   2  the table decoder alone, on the bytes of all frames joined.
// Accepted requests and tables must respect the limits the decoders promise.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/transport/fuzz/fuzz_input.h"
#include "transport/errors.h"
#include "transport/rendezvous_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zmpi::transport;
  constexpr int kParticipants = 4;
  const uint64_t job = jobHashOf("fuzz-job");
  zmpi::fuzz::FuzzInput input = zmpi::fuzz::splitFrames(data, size);
  try {
    switch (input.selector % 3) {
      case 0: {
        RendezvousRequest request = decodeRendezvousRequest(std::move(input.frames), job, kParticipants);
        ZMPI_FUZZ_CHECK(request.envelope.participant >= 0 && request.envelope.participant < kParticipants);
        ZMPI_FUZZ_CHECK(request.kind == kRendezvousHello || request.kind == kRendezvousEvent);
        ZMPI_FUZZ_CHECK(request.blob.size() <= kMaxRendezvousBlobBytes);
        break;
      }
      case 1: {
        auto table = decodeRendezvousReply(std::move(input.frames), job, kParticipants, "fuzz");
        ZMPI_FUZZ_CHECK(table.size() == kParticipants);
        break;
      }
      default: {
        std::string joined;
        for (const auto& frame : input.frames) joined += frame.to_string();
        const int expected = 1 + (input.selector >> 2) % 8;
        auto table = decodeRendezvousTable(joined.data(), joined.size(), expected);
        ZMPI_FUZZ_CHECK(static_cast<int>(table.size()) == expected);
        for (const auto& blob : table) ZMPI_FUZZ_CHECK(blob.size() <= kMaxRendezvousBlobBytes);
        ZMPI_FUZZ_CHECK(encodeRendezvousTable(table) == joined);
      }
    }
  } catch (const TransportError&) {  // MalformedMessage, or the server's error reply
  }
  return 0;
}
