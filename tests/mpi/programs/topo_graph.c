/* Graph and distributed-graph topologies: a ring built three ways (Graph_create,
 * Dist_graph_create_adjacent with weights, Dist_graph_create described entirely by rank
 * 0), their queries, and neighbor alltoall(v)/allgather(v), blocking and not, including
 * a strided receive type.
 */
// zmpi-test-ranks: 1 2 3 4 6
#include <stdlib.h>

#include "check.h"

/* Ring neighbors of r: [left, right]. */
static void ringOf(int r, int size, int out[2]) {
  out[0] = (r + size - 1) % size;
  out[1] = (r + 1) % size;
}

/* What slot i of my alltoall receive holds when every rank q sends 100 * q + j to its
 * j-th destination (both lists [left, right]): blocks between the same pair pair up in
 * order, so with size <= 2 (left == right) the k-th block from a rank is the k-th it sent
 * me. */
static int expected(int me, int size, int slot) {
  if (slot < 0 || slot > 1) return -1; /* a ring has two slots */
  int mine[2], theirs[2];
  ringOf(me, size, mine);
  int from = mine[slot];
  int occurrence = 0;
  for (int i = 0; i < slot; ++i) occurrence += mine[i] == from;
  ringOf(from, size, theirs);
  for (int j = 0; j < 2; ++j) {
    if (theirs[j] == me && occurrence-- == 0) return 100 * from + j;
  }
  return -1;
}

static void checkRingAlltoall(MPI_Comm comm, int me, int size, int nonblocking) {
  int send[2] = {100 * me, 100 * me + 1}, recv[2] = {-1, -1};
  if (nonblocking) {
    MPI_Request request;
    MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else {
    MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm);
  }
  CHECK_EQ_INT(recv[0], expected(me, size, 0));
  CHECK_EQ_INT(recv[1], expected(me, size, 1));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int ring[2];
  ringOf(rank, size, ring);

  /* Graph_create: everyone passes the whole ring. */
  int* index = calloc((size_t)size, sizeof(int));
  int* edges = calloc(2 * (size_t)size, sizeof(int));
  for (int r = 0; r < size; ++r) {
    index[r] = 2 * (r + 1);
    ringOf(r, size, &edges[2 * r]);
  }
  MPI_Comm graph;
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph);
  int status, nnodes, nedges, count, neighbors[2];
  MPI_Topo_test(graph, &status);
  CHECK_EQ_INT(status, MPI_GRAPH);
  MPI_Graphdims_get(graph, &nnodes, &nedges);
  CHECK_EQ_INT(nnodes, size);
  CHECK_EQ_INT(nedges, 2 * size);
  MPI_Graph_neighbors_count(graph, rank, &count);
  CHECK_EQ_INT(count, 2);
  MPI_Graph_neighbors(graph, rank, 2, neighbors);
  CHECK(neighbors[0] == ring[0] && neighbors[1] == ring[1]);
  int gotIndex[2] = {-1, -1}, gotEdges[2] = {-1, -1};
  MPI_Graph_get(graph, 1, 2, gotIndex, gotEdges);
  CHECK_EQ_INT(gotIndex[0], 2);
  CHECK(gotEdges[0] == edges[0] && gotEdges[1] == edges[1]);
  checkRingAlltoall(graph, rank, size, 0);

  /* Adjacent dist graph, weighted. */
  MPI_Comm adjacent;
  int weights[2] = {7, 9};
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, ring, weights, 2, ring, weights, MPI_INFO_NULL, 0, &adjacent);
  int indegree, outdegree, weighted;
  MPI_Dist_graph_neighbors_count(adjacent, &indegree, &outdegree, &weighted);
  CHECK(indegree == 2 && outdegree == 2 && weighted);
  int sources[2], sourceWeights[2], dests[2], destWeights[2];
  MPI_Dist_graph_neighbors(adjacent, 2, sources, sourceWeights, 2, dests, destWeights);
  CHECK(sources[0] == ring[0] && sources[1] == ring[1] && sourceWeights[1] == 9 && destWeights[0] == 7);
  checkRingAlltoall(adjacent, rank, size, 0);
  checkRingAlltoall(adjacent, rank, size, 1);

  /* General dist graph: rank 0 describes every edge r -> left(r), r -> right(r). */
  MPI_Comm described;
  int n = rank == 0 ? size : 0;
  int* edgeSources = malloc(sizeof(int) * size);
  int* degrees = malloc(sizeof(int) * size);
  for (int r = 0; r < size; ++r) edgeSources[r] = r, degrees[r] = 2;
  /* MPI_UNWEIGHTED is the address 2; through a volatile, GCC stops warning that the
   * "array" it points to is too small. */
  int* volatile unweighted = MPI_UNWEIGHTED;
  MPI_Dist_graph_create(MPI_COMM_WORLD, n, edgeSources, degrees, edges, unweighted, MPI_INFO_NULL, 0, &described);
  MPI_Dist_graph_neighbors_count(described, &indegree, &outdegree, &weighted);
  CHECK(indegree == 2 && outdegree == 2 && !weighted);
  MPI_Dist_graph_neighbors(described, 2, sources, unweighted, 2, dests, unweighted);
  CHECK(dests[0] == ring[0] && dests[1] == ring[1]);
  CHECK((sources[0] == ring[0] && sources[1] == ring[1]) || (sources[0] == ring[1] && sources[1] == ring[0]));

  /* alltoallv with displacements, and allgatherv into a strided receive type. */
  int send[2] = {100 * rank, 100 * rank + 1}, sendCounts[2] = {1, 1}, sendDispls[2] = {1, 0};
  int recv[4] = {-1, -1, -1, -1}, recvCounts[2] = {1, 1}, recvDispls[2] = {3, 0};
  MPI_Neighbor_alltoallv(send, sendCounts, sendDispls, MPI_INT, recv, recvCounts, recvDispls, MPI_INT, adjacent);
  /* Destination 0 got send[1], destination 1 got send[0]; slot 0 lands at recv[3]. */
  int swapped0 = expected(rank, size, 0), swapped1 = expected(rank, size, 1);
  CHECK_EQ_INT(recv[3], swapped0 % 100 == 0 ? swapped0 + 1 : swapped0 - 1);
  CHECK_EQ_INT(recv[0], swapped1 % 100 == 0 ? swapped1 + 1 : swapped1 - 1);

  MPI_Datatype everyOther, spaced;
  MPI_Type_vector(2, 1, 2, MPI_INT, &everyOther);
  MPI_Type_create_resized(everyOther, 0, 4 * sizeof(int), &spaced);
  MPI_Type_commit(&spaced);
  int pair[2] = {rank, -rank}, wide[8];
  for (int i = 0; i < 8; ++i) wide[i] = 555;
  MPI_Neighbor_allgather(pair, 2, MPI_INT, wide, 1, spaced, adjacent);
  for (int slot = 0; slot < 2; ++slot) {
    CHECK_EQ_INT(wide[4 * slot], ring[slot]);
    CHECK_EQ_INT(wide[4 * slot + 1], 555);
    CHECK_EQ_INT(wide[4 * slot + 2], -ring[slot]);
  }
  int counts[2] = {1, 1}, displs[2] = {1, 0};
  MPI_Request request;
  MPI_Ineighbor_allgatherv(pair, 2, MPI_INT, wide, counts, displs, spaced, adjacent, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  CHECK_EQ_INT(wide[0], ring[1]);
  CHECK_EQ_INT(wide[4], ring[0]);
  MPI_Type_free(&spaced);
  MPI_Type_free(&everyOther);

  MPI_Comm_free(&described);
  MPI_Comm_free(&adjacent);
  MPI_Comm_free(&graph);
  free(index), free(edges), free(edgeSources), free(degrees);
  MPI_Finalize();
  return 0;
}
