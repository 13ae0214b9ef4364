/* MPI_Pack / MPI_Unpack of mixed items sent as MPI_PACKED; external32 round trips and
 * byte order; the datatype queries (names, dup, true extent, _x forms, match_size) and
 * the errors a program can see with MPI_ERRORS_RETURN.
 */
// zmpi-test-ranks: 1 2
#include <string.h>

#include "check.h"

static void packedExchange(int rank, int size) {
  if (size < 2 || rank > 1) return;
  double matrix[3][3];
  for (int i = 0; i < 9; ++i) matrix[i / 3][i % 3] = i;
  MPI_Datatype diagonal;
  MPI_Type_vector(3, 1, 4, MPI_DOUBLE, &diagonal);
  MPI_Type_commit(&diagonal);
  char buffer[256];
  if (rank == 0) {
    int position = 0, count = 3;
    const char* word = "zmpi";
    MPI_Pack(&count, 1, MPI_INT, buffer, sizeof buffer, &position, MPI_COMM_WORLD);
    MPI_Pack(matrix, 1, diagonal, buffer, sizeof buffer, &position, MPI_COMM_WORLD);
    MPI_Pack(word, 5, MPI_CHAR, buffer, sizeof buffer, &position, MPI_COMM_WORLD);
    CHECK_EQ_INT(position, 4 + 24 + 5);
    MPI_Send(buffer, position, MPI_PACKED, 1, 0, MPI_COMM_WORLD);
  } else {
    MPI_Status status;
    MPI_Recv(buffer, sizeof buffer, MPI_PACKED, 0, 0, MPI_COMM_WORLD, &status);
    int received, position = 0, count;
    MPI_Get_count(&status, MPI_PACKED, &received);
    CHECK_EQ_INT(received, 33);
    double into[3][3] = {{0}};
    char word[5];
    MPI_Unpack(buffer, received, &position, &count, 1, MPI_INT, MPI_COMM_WORLD);
    CHECK_EQ_INT(count, 3);
    MPI_Unpack(buffer, received, &position, into, 1, diagonal, MPI_COMM_WORLD);
    MPI_Unpack(buffer, received, &position, word, 5, MPI_CHAR, MPI_COMM_WORLD);
    CHECK(into[0][0] == 0 && into[1][1] == 4 && into[2][2] == 8 && into[0][1] == 0);
    CHECK(strcmp(word, "zmpi") == 0);
  }
  MPI_Type_free(&diagonal);
}

static void external32(void) {
  int values[2] = {0x01020304, -2};
  unsigned char out[16];
  MPI_Aint position = 0, size;
  MPI_Pack_external_size("external32", 2, MPI_INT, &size);
  CHECK_EQ_INT(size, 8);
  MPI_Pack_external("external32", values, 2, MPI_INT, out, sizeof out, &position);
  CHECK_EQ_INT(position, 8);
  CHECK(out[0] == 1 && out[3] == 4 && out[4] == 0xff && out[7] == 0xfe);
  int back[2] = {0, 0};
  position = 0;
  MPI_Unpack_external("external32", out, 8, &position, back, 2, MPI_INT);
  CHECK(back[0] == values[0] && back[1] == -2);
}

static void queries(void) {
  MPI_Datatype resized, copy;
  MPI_Type_create_resized(MPI_INT, -4, 16, &resized);
  MPI_Type_commit(&resized);
  MPI_Aint lb, extent;
  MPI_Type_get_true_extent(resized, &lb, &extent);
  CHECK_EQ_INT(lb, 0);
  CHECK_EQ_INT(extent, 4);
  MPI_Count lbx, extentx, sizex;
  MPI_Type_get_extent_x(resized, &lbx, &extentx);
  CHECK_EQ_INT(lbx, -4);
  CHECK_EQ_INT(extentx, 16);
  MPI_Type_size_x(resized, &sizex);
  CHECK_EQ_INT(sizex, 4);

  char name[MPI_MAX_OBJECT_NAME];
  int length;
  MPI_Type_get_name(MPI_DOUBLE, name, &length);
  CHECK(strcmp(name, "MPI_DOUBLE") == 0);
  MPI_Type_set_name(resized, "padded int");
  MPI_Type_get_name(resized, name, &length);
  CHECK(strcmp(name, "padded int") == 0);
  CHECK_EQ_INT(length, 10);

  MPI_Type_dup(resized, &copy);
  int ni, na, nd, combiner;
  MPI_Type_get_envelope(copy, &ni, &na, &nd, &combiner);
  CHECK_EQ_INT(combiner, MPI_COMBINER_DUP);
  CHECK_EQ_INT(nd, 1);
  MPI_Datatype inner;
  MPI_Type_get_contents(copy, 0, 0, 1, NULL, NULL, &inner);
  CHECK(inner == resized);
  MPI_Type_free(&inner); /* get_contents hands out a new reference */
  MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &combiner);
  CHECK_EQ_INT(combiner, MPI_COMBINER_NAMED);

  MPI_Datatype matched;
  MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &matched);
  CHECK(matched == MPI_REAL8);
  MPI_Type_free(&copy);
  MPI_Type_free(&resized);
}

static void errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Datatype t, predefined = MPI_INT;
  int class;
  MPI_Error_class(MPI_Type_contiguous(-1, MPI_INT, &t), &class);
  CHECK_EQ_INT(class, MPI_ERR_COUNT);
  MPI_Error_class(MPI_Type_vector(2, 1, 2, MPI_DATATYPE_NULL, &t), &class);
  CHECK_EQ_INT(class, MPI_ERR_TYPE);
  MPI_Error_class(MPI_Type_free(&predefined), &class);
  CHECK_EQ_INT(class, MPI_ERR_TYPE);
  int sizes[1] = {4}, subsizes[1] = {5}, starts[1] = {0};
  MPI_Error_class(MPI_Type_create_subarray(1, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t), &class);
  CHECK_EQ_INT(class, MPI_ERR_ARG);
  /* Sending an uncommitted type. */
  MPI_Type_contiguous(2, MPI_INT, &t);
  int two[2] = {1, 2};
  MPI_Error_class(MPI_Send(two, 1, t, MPI_PROC_NULL, 0, MPI_COMM_WORLD), &class);
  CHECK_EQ_INT(class, MPI_ERR_TYPE);
  MPI_Type_free(&t);
  /* Packing past the end of the buffer. */
  char small[6];
  int position = 0;
  MPI_Error_class(MPI_Pack(two, 2, MPI_INT, small, sizeof small, &position, MPI_COMM_WORLD), &class);
  CHECK_EQ_INT(class, MPI_ERR_TRUNCATE);
  CHECK_EQ_INT(position, 0);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  packedExchange(rank, size);
  external32();
  queries();
  errors();
  MPI_Finalize();
  return 0;
}
