#include "mpi/init/card_text.h"

#include <charconv>
#include <stdexcept>

namespace zmpi::mpi {
namespace {

constexpr char kDigits[] = "0123456789abcdef";
// "N:" for up to 99999 pieces.
constexpr size_t kCountRoom = 6;

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

std::vector<std::string> cardPieces(const std::string& bytes, size_t maxPieceBytes) {
  if (maxPieceBytes < 16) throw std::invalid_argument("cardPieces: pieces of fewer than 16 characters");
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char byte : bytes) {
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 15]);
  }
  const size_t room = (maxPieceBytes - kCountRoom) & ~size_t{1};  // whole bytes a piece
  const size_t count = hex.empty() ? 1 : (hex.size() + room - 1) / room;
  std::vector<std::string> pieces;
  for (size_t i = 0; i < count; ++i) pieces.push_back(std::to_string(count) + ":" + hex.substr(i * room, room));
  return pieces;
}

bool CardAssembly::add(const std::string& piece) {
  const size_t colon = piece.find(':');
  size_t count = 0;
  const auto parsed = std::from_chars(piece.data(), piece.data() + (colon == std::string::npos ? 0 : colon), count);
  const bool countOk = colon != std::string::npos && parsed.ec == std::errc() && parsed.ptr == piece.data() + colon &&
                       count > 0 && (expected_ == 0 || count == expected_) && received_ < count;
  const size_t digits = countOk ? piece.size() - colon - 1 : 1;
  if (!countOk || digits % 2 != 0) {
    expected_ = 0;
    return false;
  }
  std::string decoded;
  for (size_t i = colon + 1; i < piece.size(); i += 2) {
    const int high = hexValue(piece[i]);
    const int low = hexValue(piece[i + 1]);
    if (high < 0 || low < 0) {
      expected_ = 0;
      return false;
    }
    decoded.push_back(static_cast<char>(high * 16 + low));
  }
  expected_ = count;
  ++received_;
  bytes_ += decoded;
  return true;
}

}  // namespace zmpi::mpi
