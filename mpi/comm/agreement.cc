#include "mpi/comm/agreement.h"

#include <algorithm>

#include "mpi/core/error.h"
#include "mpi/core/world.h"

namespace zmpi::mpi {

std::vector<int> allgatherInts(coll::Channel& channel, const std::vector<int>& members, const std::vector<int>& mine) {
  const int n = static_cast<int>(members.size());
  const auto self = std::find(members.begin(), members.end(), channel.rank());
  if (self == members.end()) fail(MPI_ERR_INTERN, "allgather among ranks that exclude the caller");
  const int me = static_cast<int>(self - members.begin());
  const std::size_t k = mine.size();

  // blocks[i] holds the contribution of member (me + i) % n. Round with distance d: send
  // the first min(d, n - d) blocks to member me - d, receive as many from member me + d
  // into positions d.. — after the last round every position is filled.
  std::vector<int> blocks(k * static_cast<std::size_t>(n));
  std::copy(mine.begin(), mine.end(), blocks.begin());
  int step = 0;
  for (int distance = 1; distance < n; distance *= 2, ++step) {
    const std::size_t count = static_cast<std::size_t>(std::min(distance, n - distance)) * k;
    const int to = members[static_cast<std::size_t>((me - distance + n) % n)];
    const int from = members[static_cast<std::size_t>((me + distance) % n)];
    channel.sendrecv(to, step, blocks.data(), count * sizeof(int), from, step,
                     blocks.data() + static_cast<std::size_t>(distance) * k, count * sizeof(int));
  }

  std::vector<int> result(blocks.size());
  for (int i = 0; i < n; ++i) {
    const auto source = blocks.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(i) * k);
    std::copy(source, source + static_cast<std::ptrdiff_t>(k),
              result.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>((me + i) % n) * k));
  }
  return result;
}

std::vector<int> allgatherInts(Communicator& comm, const std::vector<int>& mine) {
  coll::Channel channel(comm);
  std::vector<int> members(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) members[static_cast<std::size_t>(r)] = r;
  return allgatherInts(channel, members, mine);
}

void bcastInts(Communicator& comm, int root, std::vector<int>& data) {
  coll::Channel channel(comm);
  if (comm.rank() == root) {
    int length = static_cast<int>(data.size());
    std::vector<Request*> sends;
    for (int r = 0; r < comm.size(); ++r) {
      if (r == root) continue;
      sends.push_back(channel.isend(r, 0, &length, sizeof length));
      if (length > 0) sends.push_back(channel.isend(r, 1, data.data(), data.size() * sizeof(int)));
    }
    channel.waitAll(sends);
    return;
  }
  int length = 0;
  channel.recv(root, 0, &length, sizeof length);
  data.assign(static_cast<std::size_t>(length), 0);
  if (length > 0) channel.recv(root, 1, data.data(), data.size() * sizeof(int));
}

int claimContextId(World& world, const std::vector<int>& floors) {
  const int agreed = *std::max_element(floors.begin(), floors.end());
  // Context ids become envelope contexts 2 * id and 2 * id + 1 (int32).
  if (agreed >= (1 << 30) - 1) fail(MPI_ERR_INTERN, "context ids exhausted");
  world.raiseContextIdFloor(agreed + 1);
  return agreed;
}

int agreeContextId(Communicator& comm) {
  return claimContextId(comm.world(), allgatherInts(comm, {comm.world().contextIdFloor()}));
}

}  // namespace zmpi::mpi
