// Intercommunicator reductions (inter.h): reduce, allreduce, reduce_scatter. Operands
// travel as spans (reduction.h) and are combined in rank order, so non-commutative ops
// get x0 op x1 op ... as MPI defines it.
#include <mpi.h>

#include <cstring>

#include "mpi/coll/inter.h"
#include "mpi/coll/reduction.h"
#include "mpi/core/error.h"

namespace zmpi::mpi::coll {
namespace {

// Steps of the leader-based reductions.
constexpr int kToLeader = 0;
constexpr int kBetweenLeaders = 1;
constexpr int kFromLeader = 2;

// Scratch holding the fold of `operands` (span pointers, in rank order) once the round's
// transfers are done: a local action computes it.
char* foldInRankOrder(Schedule& s, const Reduction& red, std::vector<const char*> operands) {
  char* acc = s.scratch(red.bytes());
  s.local([red, acc, operands = std::move(operands)] {
    std::memcpy(acc, operands.back(), red.bytes());
    for (std::size_t i = operands.size() - 1; i-- > 0;) red.combine(operands[i], acc, red.count());
  });
  return acc;
}

// Every local process's operand reduced at the local leader; returns the result's scratch
// there (valid after this round), null elsewhere.
char* reduceToLeader(Schedule& s, Communicator& inter, const Reduction& red, const void* sendbuf) {
  const char* mine = red.spanOf(sendbuf);
  if (inter.rank() != 0) {
    s.send(inter.bridgeRankOfLocal(0), kToLeader, mine, red.bytes());
    return nullptr;
  }
  std::vector<const char*> operands{mine};
  for (int r = 1; r < inter.size(); ++r) {
    char* theirs = s.scratch(red.bytes());
    s.recv(inter.bridgeRankOfLocal(r), kToLeader, theirs, red.bytes());
    operands.push_back(theirs);
  }
  return foldInRankOrder(s, red, std::move(operands));
}

// The leaders swap their groups' results; returns the other group's at the leader.
char* swapAtLeaders(Schedule& s, Communicator& inter, const Reduction& red, const char* ours) {
  if (inter.rank() != 0) return nullptr;
  char* theirs = s.scratch(red.bytes());
  s.recv(inter.bridgeRankOfRemote(0), kBetweenLeaders, theirs, red.bytes());
  s.send(inter.bridgeRankOfRemote(0), kBetweenLeaders, ours, red.bytes());
  s.fence();
  return theirs;
}

// The schedule keeps the op and type alive (a nonblocking call may outlive their frees);
// the local actions hold copies of the Reduction, which only points at them.
// The intercommunicator too (MPI_Comm_free may come while a nonblocking call is pending).
Reduction reductionFor(Schedule& s, Communicator& inter, const Op& op, const Datatype& type, std::size_t count) {
  s.hold(&inter);
  s.hold(const_cast<Op*>(&op));
  s.hold(const_cast<Datatype*>(&type));
  return {op, type, count};
}

}  // namespace

Plan planInterReduce(Communicator& inter, const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                     const Op& op, int root) {
  auto s = std::make_unique<Schedule>(*inter.bridge);
  const Reduction red = reductionFor(*s, inter, op, type, static_cast<std::size_t>(count));
  if (count == 0 || root == MPI_PROC_NULL) return s;
  if (root != MPI_ROOT) {
    s->send(inter.bridgeRankOfRemote(root), kToLeader, red.spanOf(sendbuf), red.bytes());
    return s;
  }
  std::vector<const char*> operands;
  for (int j = 0; j < inter.remoteGroup().size(); ++j) {
    char* theirs = s->scratch(red.bytes());
    s->recv(inter.bridgeRankOfRemote(j), kToLeader, theirs, red.bytes());
    operands.push_back(theirs);
  }
  char* result = foldInRankOrder(*s, red, std::move(operands));
  s->local([red, result, recvbuf] { red.copyElements(result, red.spanOf(recvbuf), red.count()); });
  return s;
}

Plan planInterAllreduce(Communicator& inter, const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                        const Op& op) {
  auto s = std::make_unique<Schedule>(*inter.bridge);
  const Reduction red = reductionFor(*s, inter, op, type, static_cast<std::size_t>(count));
  if (count == 0) return s;
  char* ours = reduceToLeader(*s, inter, red, sendbuf);
  char* theirs = swapAtLeaders(*s, inter, red, ours);
  if (inter.rank() == 0) {
    for (int r = 1; r < inter.size(); ++r) s->send(inter.bridgeRankOfLocal(r), kFromLeader, theirs, red.bytes());
  } else {
    theirs = s->scratch(red.bytes());
    s->recv(inter.bridgeRankOfLocal(0), kFromLeader, theirs, red.bytes());
  }
  s->local([red, theirs, recvbuf] { red.copyElements(theirs, red.spanOf(recvbuf), red.count()); });
  return s;
}

Plan planInterReduceScatter(Communicator& inter, const void* sendbuf, void* recvbuf, const int* recvcounts,
                            const Datatype& type, const Op& op) {
  const int n = inter.size();
  std::vector<std::size_t> starts(static_cast<std::size_t>(n) + 1, 0);
  for (int r = 0; r < n; ++r) starts[r + 1] = starts[r] + static_cast<std::size_t>(recvcounts[r]);
  auto s = std::make_unique<Schedule>(*inter.bridge);
  const Reduction red = reductionFor(*s, inter, op, type, starts.back());
  if (starts.back() == 0) return s;
  if (!red.splittable()) {
    fail(MPI_ERR_TYPE, "intercommunicator reduce_scatter needs a type whose elements do not overlap");
  }
  char* ours = reduceToLeader(*s, inter, red, sendbuf);
  char* theirs = swapAtLeaders(*s, inter, red, ours);
  const auto mine = static_cast<std::size_t>(recvcounts[inter.rank()]);
  char* block = nullptr;
  if (inter.rank() == 0) {
    for (int r = 1; r < n; ++r) {
      const auto elements = static_cast<std::size_t>(recvcounts[r]);
      s->send(inter.bridgeRankOfLocal(r), kFromLeader, theirs + red.offsetOf(starts[r]), red.spanBytes(elements));
    }
    block = theirs;
  } else {
    block = s->scratch(red.spanBytes(mine));
    s->recv(inter.bridgeRankOfLocal(0), kFromLeader, block, red.spanBytes(mine));
  }
  if (mine > 0) s->local([red, block, recvbuf, mine] { red.copyElements(block, red.spanOf(recvbuf), mine); });
  return s;
}

}  // namespace zmpi::mpi::coll
