#pragma once
// A rank's card (bytes) as text a key-value store of short text values takes (PMI-2's: at
// most 1024 bytes a value): hex, in pieces that each say how many there are, "N:hex...".
// Reading them back checks every piece, so a malformed or truncated value fails MPI_Init
// naming the key instead of turning into a wrong address.
#include <cstddef>
#include <string>
#include <vector>

namespace zmpi::mpi {

// `bytes` in pieces of at most `maxPieceBytes` characters each (at least 16).
std::vector<std::string> cardPieces(const std::string& bytes, size_t maxPieceBytes);

class CardAssembly {
 public:
  // Takes the next piece; false when it is malformed (then the card is unusable).
  bool add(const std::string& piece);
  bool complete() const { return expected_ > 0 && received_ == expected_; }
  const std::string& value() const { return bytes_; }

 private:
  size_t expected_ = 0;
  size_t received_ = 0;
  std::string bytes_;
};

}  // namespace zmpi::mpi
