/* MPI_BOTTOM with absolute addresses: every rank describes three separate variables with
 * a struct type built from MPI_Get_address, sends them to the next rank from MPI_BOTTOM
 * and receives the previous rank's into its own variables the same way. Also checks the
 * struct's envelope/contents, MPI_Aint_add/MPI_Aint_diff, and that packing from
 * MPI_BOTTOM equals packing the relative version of the same struct.
 */
// zmpi-test-ranks: 2 4
#include <string.h>

#include "check.h"

struct Record {
  int id;
  double values[3];
  char tag;
};

/* A struct type for r's fields, with absolute addresses (base 0) or relative to r. */
static MPI_Datatype describe(struct Record* r, int absolute) {
  int lengths[3] = {1, 3, 1};
  MPI_Aint at[3], base;
  MPI_Get_address(&r->id, &at[0]);
  MPI_Get_address(r->values, &at[1]);
  MPI_Get_address(&r->tag, &at[2]);
  MPI_Get_address(r, &base);
  if (!absolute)
    for (int i = 0; i < 3; ++i) at[i] = MPI_Aint_diff(at[i], base);
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  MPI_Datatype t;
  MPI_Type_create_struct(3, lengths, at, types, &t);
  MPI_Type_commit(&t);
  return t;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;

  /* Separate allocations, so the struct's displacements are truly absolute. */
  struct Record mine = {rank, {rank + 0.5, rank + 1.5, rank + 2.5}, (char)('a' + rank)};
  struct Record theirs;
  memset(&theirs, 0, sizeof theirs);
  MPI_Datatype send = describe(&mine, 1), recv = describe(&theirs, 1);

  int sz;
  MPI_Type_size(send, &sz);
  CHECK_EQ_INT(sz, sizeof(int) + 3 * sizeof(double) + 1);

  MPI_Request request;
  MPI_Isend(MPI_BOTTOM, 1, send, next, 7, MPI_COMM_WORLD, &request);
  MPI_Status status;
  MPI_Recv(MPI_BOTTOM, 1, recv, prev, 7, MPI_COMM_WORLD, &status);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  CHECK_EQ_INT(theirs.id, prev);
  for (int i = 0; i < 3; ++i) CHECK(theirs.values[i] == prev + i + 0.5);
  CHECK_EQ_INT(theirs.tag, 'a' + prev);

  /* Envelope and contents give back what built the type. */
  int ni, na, nd, combiner;
  MPI_Type_get_envelope(send, &ni, &na, &nd, &combiner);
  CHECK_EQ_INT(combiner, MPI_COMBINER_STRUCT);
  CHECK_EQ_INT(ni, 4);
  CHECK_EQ_INT(na, 3);
  CHECK_EQ_INT(nd, 3);
  int ints[4];
  MPI_Aint addrs[3];
  MPI_Datatype types[3];
  MPI_Type_get_contents(send, 4, 3, 3, ints, addrs, types);
  CHECK_EQ_INT(ints[0], 3);
  CHECK_EQ_INT(ints[2], 3);
  CHECK(addrs[0] == (MPI_Aint)&mine.id);
  CHECK(addrs[1] == MPI_Aint_add((MPI_Aint)&mine, MPI_Aint_diff((MPI_Aint)mine.values, (MPI_Aint)&mine)));
  CHECK(types[1] == MPI_DOUBLE);

  /* Packing from MPI_BOTTOM = packing the relative struct from the record's address. */
  MPI_Datatype relative = describe(&mine, 0);
  char a[64], b[64];
  int pa = 0, pb = 0, packSize;
  MPI_Pack_size(1, send, MPI_COMM_WORLD, &packSize);
  CHECK(packSize <= 64);
  MPI_Pack(MPI_BOTTOM, 1, send, a, sizeof a, &pa, MPI_COMM_WORLD);
  MPI_Pack(&mine, 1, relative, b, sizeof b, &pb, MPI_COMM_WORLD);
  CHECK_EQ_INT(pa, pb);
  CHECK(memcmp(a, b, pa) == 0);
  /* ... and unpacking to MPI_BOTTOM writes the absolute addresses. */
  memset(&theirs, 0, sizeof theirs);
  int pos = 0;
  MPI_Unpack(a, pa, &pos, MPI_BOTTOM, 1, recv, MPI_COMM_WORLD);
  CHECK_EQ_INT(theirs.id, rank);
  CHECK(theirs.values[2] == rank + 2.5);

  MPI_Type_free(&relative);
  MPI_Type_free(&send);
  MPI_Type_free(&recv);
  MPI_Finalize();
  return 0;
}
