// readProcessPieces / writeProcessPieces on this process's own memory (a process may always
// read itself): pieces are packed back to back in order, more pieces than one system call
// takes (IOV_MAX) are moved in batches, empty pieces are skipped, and an address nobody
// maps fails instead of moving part of the data silently.
#include "transport/process_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <climits>
#include <cstdint>
#include <vector>

using zmpi::transport::readProcessPieces;
using zmpi::transport::RemotePiece;
using zmpi::transport::writeProcessPieces;

namespace {

uint64_t addressOf(const void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }

// Pieces of varying length (0 among them) over `source`, every other byte run skipped.
std::vector<RemotePiece> scatteredPieces(const std::vector<uint8_t>& source, std::size_t count) {
  std::vector<RemotePiece> pieces;
  std::size_t at = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t bytes = i % 5;  // 0..4: empty pieces included
    pieces.push_back({addressOf(source.data() + at), bytes});
    at += bytes + 1;  // a gap byte that must not be read
  }
  REQUIRE(at <= source.size());
  return pieces;
}

}  // namespace

TEST_CASE("process memory: pieces read back to back, in batches beyond IOV_MAX", "[process_memory]") {
  const std::size_t count =
      GENERATE(std::size_t{1}, std::size_t{7}, std::size_t{IOV_MAX}, std::size_t{2 * IOV_MAX + 3});
  std::vector<uint8_t> source(count * 6);
  for (std::size_t k = 0; k < source.size(); ++k) source[k] = static_cast<uint8_t>(k * 13 + 5);
  const auto pieces = scatteredPieces(source, count);
  std::vector<uint8_t> expected;
  for (const auto& piece : pieces) {
    const auto* from = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(piece.address));
    expected.insert(expected.end(), from, from + piece.bytes);
  }
  std::vector<uint8_t> packed(expected.size() + 1, 0xEE);
  REQUIRE(readProcessPieces(static_cast<int>(getpid()), pieces.data(), pieces.size(), packed.data()));
  CHECK(std::vector<uint8_t>(packed.begin(), packed.end() - 1) == expected);
  CHECK(packed.back() == 0xEE);  // nothing past the packed bytes
}

TEST_CASE("process memory: a write fills the pieces and leaves the gaps alone", "[process_memory]") {
  const std::size_t count = 2 * IOV_MAX + 3;
  std::vector<uint8_t> target(count * 6, 0x11);
  const auto pieces = scatteredPieces(target, count);
  std::size_t total = 0;
  for (const auto& piece : pieces) total += piece.bytes;
  std::vector<uint8_t> packed(total);
  for (std::size_t k = 0; k < total; ++k) packed[k] = static_cast<uint8_t>(k % 200 + 40);
  REQUIRE(writeProcessPieces(static_cast<int>(getpid()), pieces.data(), pieces.size(), packed.data()));
  std::size_t next = 0;
  std::size_t at = 0;
  for (const auto& piece : pieces) {
    for (std::size_t b = 0; b < piece.bytes; ++b) REQUIRE(target[at + b] == packed[next++]);
    REQUIRE(target[at + piece.bytes] == 0x11);  // the gap
    at += piece.bytes + 1;
  }
}

TEST_CASE("process memory: an unmapped address fails the whole move", "[process_memory]") {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  // cppcheck-suppress invalidFunctionArg ; MAP_ANONYMOUS maps no file: fd -1, as mmap(2) asks
  void* mapped = ::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(mapped != MAP_FAILED);
  auto* bytes = static_cast<uint8_t*>(mapped);
  REQUIRE(::munmap(bytes + page, page) == 0);  // the second page is gone
  // A piece that runs off the end of the first page into the unmapped one: the kernel moves
  // the first part and stops; the move must report failure, not success.
  const RemotePiece pieces[] = {{addressOf(bytes), 16}, {addressOf(bytes + page - 8), 64}};
  std::vector<uint8_t> packed(80);
  CHECK_FALSE(readProcessPieces(static_cast<int>(getpid()), pieces, 2, packed.data()));
  CHECK_FALSE(writeProcessPieces(static_cast<int>(getpid()), pieces, 2, packed.data()));
  REQUIRE(::munmap(bytes, page) == 0);
}
