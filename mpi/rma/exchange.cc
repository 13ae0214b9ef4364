#include "mpi/rma/exchange.h"

#include <cstring>

#include "mpi/coll/barrier.h"
#include "mpi/coll/channel.h"

namespace zmpi::mpi::rma {

std::vector<char> allgatherRecords(Communicator& comm, const void* mine, std::size_t bytes) {
  const int size = comm.size();
  const int rank = comm.rank();
  std::vector<char> all(bytes * static_cast<std::size_t>(size));
  std::memcpy(all.data() + bytes * static_cast<std::size_t>(rank), mine, bytes);
  coll::Channel channel(comm);
  std::vector<Request*> requests;
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    requests.push_back(channel.irecv(peer, 0, all.data() + bytes * static_cast<std::size_t>(peer), bytes));
  }
  for (int peer = 0; peer < size; ++peer) {
    if (peer != rank) requests.push_back(channel.isend(peer, 0, mine, bytes));
  }
  channel.waitAll(requests);
  return all;
}

void barrier(Communicator& comm) { coll::barrierDissemination(comm); }

}  // namespace zmpi::mpi::rma
