#include "mpi/coll/barrier.h"

namespace zmpi::mpi::coll {

void barrierDissemination(Schedule& s) {
  const int p = s.size();
  const int r = s.rank();
  char* token = s.scratch(2);
  token[0] = 0;
  for (int distance = 1, step = 0; distance < p; distance *= 2, ++step) {
    s.recv((r - distance + p) % p, step, token + 1, 1);
    s.send((r + distance) % p, step, token, 1);
    s.fence();
  }
}

void barrierDissemination(Communicator& comm) {
  Schedule schedule(comm);
  barrierDissemination(schedule);
  run(schedule);
}

}  // namespace zmpi::mpi::coll
