#include "mpi/coll/allgather_recursive_doubling.h"

namespace zmpi::mpi::coll {

void allgatherRecursiveDoubling(Schedule& s, char* all, std::size_t block) {
  const int r = s.rank();
  for (int mask = 1, step = 0; mask < s.size(); mask *= 2, ++step) {
    const int partner = r ^ mask;
    const auto mine = static_cast<std::size_t>(r & ~(mask - 1));
    const auto theirs = static_cast<std::size_t>(partner & ~(mask - 1));
    const std::size_t bytes = static_cast<std::size_t>(mask) * block;
    s.recv(partner, step, all + theirs * block, bytes);
    s.send(partner, step, all + mine * block, bytes);
    s.fence();
  }
}

}  // namespace zmpi::mpi::coll
