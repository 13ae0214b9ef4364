// Fuzz target: the wire decoder every rank endpoint runs on each received message
// (transport/frames.h decodeMessage -> wire.h decodeFrames). Input format: fuzz_input.h;
// selector bit 0 picks the expected job hash (a fixed job, or 0 = any job). Whatever the
// bytes, the decoder either throws MalformedMessage or returns a message that keeps every
// promise of wire.h: magic, version, the job, and a payload exactly as long as declared.
#include <cstddef>
#include <cstdint>

#include "tests/transport/fuzz/fuzz_input.h"
#include "transport/errors.h"
#include "transport/frames.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zmpi::transport;
  zmpi::fuzz::FuzzInput input = zmpi::fuzz::splitFrames(data, size);
  const uint64_t job = (input.selector & 1) ? 0 : jobHashOf("fuzz-job");
  const size_t frameCount = input.frames.size();
  try {
    WireMessage message = decodeMessage(std::move(input.frames), job);
    ZMPI_FUZZ_CHECK(message.header.magic == kWireMagic);
    ZMPI_FUZZ_CHECK(message.header.version == kWireVersion);
    ZMPI_FUZZ_CHECK(job == 0 || message.header.jobHash == job);
    ZMPI_FUZZ_CHECK(message.header.payloadBytes <= kMaxPayloadBytes);
    ZMPI_FUZZ_CHECK(message.payload.size() == message.header.payloadBytes);
    ZMPI_FUZZ_CHECK(frameCount >= 1 && frameCount <= 2);
  } catch (const MalformedMessage&) {
  }
  return 0;
}
