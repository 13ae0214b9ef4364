#include "mpi/coll/barrier.h"

#include "mpi/coll/channel.h"

namespace zmpi::mpi::coll {

void barrierDissemination(Communicator& comm) {
  Channel channel(comm);
  const int p = channel.size();
  const int r = channel.rank();
  char token = 0, sink = 0;
  for (int distance = 1, step = 0; distance < p; distance *= 2, ++step) {
    channel.sendrecv((r + distance) % p, step, &token, 1, (r - distance + p) % p, step, &sink, 1);
  }
}

}  // namespace zmpi::mpi::coll
