#include "mpi/topo/graph.h"

#include <string>

#include "mpi/coll/channel.h"
#include "mpi/core/error.h"

namespace zmpi::mpi {

GraphTopology makeGraph(int nnodes, const int* index, const int* edges) {
  GraphTopology graph;
  int previous = 0;
  for (int i = 0; i < nnodes; ++i) {
    if (index[i] < previous) {
      fail(MPI_ERR_ARG, "index[" + std::to_string(i) + "] = " + std::to_string(index[i]) +
                            " is smaller than the previous entry (" + std::to_string(previous) + ")");
    }
    previous = index[i];
    graph.index.push_back(index[i]);
  }
  for (int e = 0; e < previous; ++e) {
    if (edges[e] < 0 || edges[e] >= nnodes) {
      fail(MPI_ERR_ARG, "edges[" + std::to_string(e) + "] = " + std::to_string(edges[e]) +
                            " is not a node of the graph (nnodes " + std::to_string(nnodes) + ")");
    }
    graph.edges.push_back(edges[e]);
  }
  return graph;
}

std::vector<int> graphNeighbors(const GraphTopology& graph, int rank) {
  if (rank < 0 || rank >= graph.nnodes()) {
    fail(MPI_ERR_RANK, "rank " + std::to_string(rank) + " is not a node of the graph (nnodes " +
                           std::to_string(graph.nnodes()) + ")");
  }
  const int begin = rank == 0 ? 0 : graph.index[static_cast<std::size_t>(rank - 1)];
  const int end = graph.index[static_cast<std::size_t>(rank)];
  return {graph.edges.begin() + begin, graph.edges.begin() + end};
}

DistGraphTopology exchangeDistGraphEdges(Communicator& comm, const DistGraphEdges& mine) {
  const int n = comm.size();
  const bool weighted = mine.weighted;
  // outbox[q]: triples (kind, other end, weight) for rank q; kind 0 = q's out-edge to
  // `other`, 1 = q's in-edge from `other`.
  std::vector<std::vector<int>> outbox(static_cast<std::size_t>(n));
  std::size_t k = 0;
  for (std::size_t i = 0; i < mine.sources.size(); ++i) {
    const int source = mine.sources[i];
    if (source < 0 || source >= n) {
      fail(MPI_ERR_RANK, "sources[" + std::to_string(i) + "] = " + std::to_string(source) +
                             " is not a rank of the communicator (size " + std::to_string(n) + ")");
    }
    for (int j = 0; j < mine.degrees[i]; ++j, ++k) {
      const int dest = mine.destinations[k];
      if (dest < 0 || dest >= n) {
        fail(MPI_ERR_RANK, "destinations[" + std::to_string(k) + "] = " + std::to_string(dest) +
                               " is not a rank of the communicator (size " + std::to_string(n) + ")");
      }
      const int weight = weighted ? mine.weights[k] : 1;
      outbox[static_cast<std::size_t>(source)].insert(outbox[static_cast<std::size_t>(source)].end(),
                                                      {0, dest, weight});
      outbox[static_cast<std::size_t>(dest)].insert(outbox[static_cast<std::size_t>(dest)].end(), {1, source, weight});
    }
  }

  // Pairwise exchange in two steps: sizes, then the triples. n is small next to the
  // edges a program describes, and this runs once per topology.
  coll::Channel channel(comm);
  std::vector<int> counts(static_cast<std::size_t>(n));
  std::vector<int> myCounts(static_cast<std::size_t>(n));
  std::vector<Request*> pending;
  for (int q = 0; q < n; ++q) {
    myCounts[static_cast<std::size_t>(q)] = static_cast<int>(outbox[static_cast<std::size_t>(q)].size());
    pending.push_back(channel.irecv(q, 0, &counts[static_cast<std::size_t>(q)], sizeof(int)));
    pending.push_back(channel.isend(q, 0, &myCounts[static_cast<std::size_t>(q)], sizeof(int)));
  }
  channel.waitAll(pending);
  pending.clear();
  std::vector<std::vector<int>> inbox(static_cast<std::size_t>(n));
  for (int q = 0; q < n; ++q) {
    auto& in = inbox[static_cast<std::size_t>(q)];
    const auto& out = outbox[static_cast<std::size_t>(q)];
    in.resize(static_cast<std::size_t>(counts[static_cast<std::size_t>(q)]));
    pending.push_back(channel.irecv(q, 1, in.data(), in.size() * sizeof(int)));
    pending.push_back(channel.isend(q, 1, out.data(), out.size() * sizeof(int)));
  }
  channel.waitAll(pending);

  DistGraphTopology topology;
  topology.weighted = weighted;
  for (const auto& in : inbox) {
    for (std::size_t t = 0; t + 2 < in.size(); t += 3) {
      if (in[t] == 0) {
        topology.destinations.push_back(in[t + 1]);
        if (weighted) topology.destinationWeights.push_back(in[t + 2]);
      } else {
        topology.sources.push_back(in[t + 1]);
        if (weighted) topology.sourceWeights.push_back(in[t + 2]);
      }
    }
  }
  return topology;
}

}  // namespace zmpi::mpi
