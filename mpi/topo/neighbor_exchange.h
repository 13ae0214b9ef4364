#pragma once
// The one communication pattern behind every neighbor collective: one block to each
// destination and one from each source of the communicator's topology, all in flight at
// once over coll::Channel (the communicator's collective context). allgather(v) and
// alltoall(v/w) differ only in where their blocks sit, which the caller works out.
// Blocking calls wait(); the nonblocking forms wrap the exchange in a request
// (makeNeighborRequest) that advances under MPI_Test/MPI_Wait.
#include <memory>
#include <vector>

#include "mpi/coll/channel.h"
#include "mpi/core/request.h"
#include "mpi/datatype/datatype.h"
#include "mpi/topo/neighbors.h"

namespace zmpi::mpi {

struct NeighborBlock {
  void* base;  // address of the block's first element (read-only for sends)
  int count;
  Datatype* type;
};

class NeighborExchange {
 public:
  // Starts all messages. sends[j] goes to lists.destinations[j], recvs[i] comes from
  // lists.sources[i]; MPI_PROC_NULL neighbors are skipped (their blocks untouched).
  // Keeps the datatypes alive until destroyed.
  NeighborExchange(Communicator& comm, const NeighborLists& lists, std::vector<NeighborBlock> sends,
                   std::vector<NeighborBlock> recvs);
  ~NeighborExchange();
  NeighborExchange(const NeighborExchange&) = delete;
  NeighborExchange& operator=(const NeighborExchange&) = delete;

  // Advances without blocking; true once every block has been sent and received.
  bool test();
  void wait();

 private:
  struct Pending {
    Request* request;
    int recvIndex;  // -1 for sends
  };
  void finishReceive(int index);

  coll::Channel channel_;
  std::vector<NeighborBlock> sends_;
  std::vector<NeighborBlock> recvs_;
  std::vector<std::vector<char>> sendStaging_;  // packed non-contiguous send blocks
  std::vector<std::vector<char>> recvStaging_;  // non-contiguous receives land here first
  std::vector<Pending> pending_;
};

// A request (Kind::Collective) owning `exchange`, done once it completes.
Request* makeNeighborRequest(Communicator& comm, std::unique_ptr<NeighborExchange> exchange);

}  // namespace zmpi::mpi
