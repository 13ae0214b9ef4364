/* File views: a strided vector filetype writing interleaved records (checked through the
 * view and through plain reads), a subarray filetype writing a 2-D decomposition of a
 * global row-major array (uneven blocks, written from a local array with a halo through a
 * memory subarray type) checked by rank 0 with plain reads; get_view, get_byte_offset,
 * seeking in etypes.
 * zmpi-test-ranks: 1 2 3 4
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "io_tmpname.h"

#define RECORDS 5 /* records per rank */
#define FIELDS 3  /* doubles per record */

static double field(int rank, int record, int k) { return rank * 1000.0 + record * 10.0 + k; }

static void interleavedRecords(int rank, int size) {
  char path[512];
  io_tmpname(MPI_COMM_WORLD, "records", path, sizeof path);
  MPI_File fh;
  CHECK_EQ_INT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh), MPI_SUCCESS);

  /* etype: one record; filetype: every size-th record, this rank's first at disp, resized
   * to all ranks' records so that further tiles (and the end of file) fall after them. */
  MPI_Datatype record, vector, strided;
  const MPI_Offset recordBytes = FIELDS * sizeof(double);
  MPI_Type_contiguous(FIELDS, MPI_DOUBLE, &record);
  MPI_Type_commit(&record);
  MPI_Type_vector(RECORDS, 1, size, record, &vector);
  MPI_Type_create_resized(vector, 0, RECORDS * size * recordBytes, &strided);
  MPI_Type_commit(&strided);
  MPI_Type_free(&vector);
  const MPI_Offset disp = rank * recordBytes;
  CHECK_EQ_INT(MPI_File_set_view(fh, disp, record, strided, "native", MPI_INFO_NULL), MPI_SUCCESS);

  double out[RECORDS][FIELDS];
  for (int j = 0; j < RECORDS; ++j)
    for (int k = 0; k < FIELDS; ++k) out[j][k] = field(rank, j, k);
  MPI_Status status;
  CHECK_EQ_INT(MPI_File_write_all(fh, out, RECORDS, record, &status), MPI_SUCCESS);
  int count = -1;
  MPI_Get_count(&status, record, &count);
  CHECK_EQ_INT(count, RECORDS);
  MPI_Offset position = -1;
  CHECK_EQ_INT(MPI_File_get_position(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, RECORDS); /* in etypes: records */

  /* Offsets through the view count records; byte offsets skip the other ranks' ones. */
  MPI_Offset byteOffset = -1;
  CHECK_EQ_INT(MPI_File_get_byte_offset(fh, 2, &byteOffset), MPI_SUCCESS);
  CHECK_EQ_INT(byteOffset, disp + 2 * size * recordBytes);
  double back[FIELDS];
  CHECK_EQ_INT(MPI_File_read_at_all(fh, 3, back, FIELDS, MPI_DOUBLE, &status), MPI_SUCCESS);
  for (int k = 0; k < FIELDS; ++k) CHECK(back[k] == field(rank, 3, k));

  /* The end of the file, seen through this rank's view, is after its last record. */
  CHECK_EQ_INT(MPI_File_seek(fh, 0, MPI_SEEK_END), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_position(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, RECORDS);

  /* get_view hands back the displacement and a duplicate of the derived etype. */
  MPI_Offset gotDisp = -1;
  MPI_Datatype gotEtype, gotFiletype;
  char datarep[MPI_MAX_DATAREP_STRING];
  CHECK_EQ_INT(MPI_File_get_view(fh, &gotDisp, &gotEtype, &gotFiletype, datarep), MPI_SUCCESS);
  CHECK_EQ_INT(gotDisp, disp);
  CHECK(strcmp(datarep, "native") == 0);
  int typeSize = 0;
  MPI_Type_size(gotFiletype, &typeSize);
  CHECK_EQ_INT(typeSize, RECORDS * recordBytes);
  MPI_Type_free(&gotEtype);
  MPI_Type_free(&gotFiletype);
  MPI_Type_free(&strided);
  MPI_Type_free(&record);

  /* Every rank sees the interleaving with plain byte reads. */
  CHECK_EQ_INT(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL), MPI_SUCCESS);
  const int total = RECORDS * size * FIELDS;
  double* all = malloc(sizeof(double) * (size_t)total);
  CHECK_EQ_INT(MPI_File_read_at(fh, 0, all, total, MPI_DOUBLE, &status), MPI_SUCCESS);
  MPI_Get_count(&status, MPI_DOUBLE, &count);
  CHECK_EQ_INT(count, total);
  for (int g = 0; g < RECORDS * size; ++g)
    for (int k = 0; k < FIELDS; ++k) CHECK(all[g * FIELDS + k] == field(g % size, g / size, k));
  free(all);

  CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK_EQ_INT(MPI_File_delete(path, MPI_INFO_NULL), MPI_SUCCESS);
}

#define ROWS 10
#define COLS 9

/* Block distribution of n over parts: the first n % parts get one more. */
static int blockSize(int n, int parts, int index) { return n / parts + (index < n % parts ? 1 : 0); }
static int blockStart(int n, int parts, int index) {
  return index * (n / parts) + (index < n % parts ? index : n % parts);
}

static void decomposition2d(int rank, int size) {
  char path[512];
  io_tmpname(MPI_COMM_WORLD, "grid", path, sizeof path);
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const int prow = rank / dims[1], pcol = rank % dims[1];
  const int lrows = blockSize(ROWS, dims[0], prow), lcols = blockSize(COLS, dims[1], pcol);
  const int row0 = blockStart(ROWS, dims[0], prow), col0 = blockStart(COLS, dims[1], pcol);

  /* The local block with a one-cell halo; the halo is never written to the file. */
  const int hrows = lrows + 2, hcols = lcols + 2;
  int* local = malloc(sizeof(int) * (size_t)(hrows * hcols));
  for (int i = 0; i < hrows * hcols; ++i) local[i] = -1;
  for (int r = 0; r < lrows; ++r)
    for (int c = 0; c < lcols; ++c) local[(r + 1) * hcols + c + 1] = (row0 + r) * 100 + (col0 + c);

  MPI_Datatype fileBlock, interior;
  const int gsizes[2] = {ROWS, COLS}, lsizes[2] = {lrows, lcols}, starts[2] = {row0, col0};
  MPI_Type_create_subarray(2, gsizes, lsizes, starts, MPI_ORDER_C, MPI_INT, &fileBlock);
  MPI_Type_commit(&fileBlock);
  const int hsizes[2] = {hrows, hcols}, one[2] = {1, 1};
  MPI_Type_create_subarray(2, hsizes, lsizes, one, MPI_ORDER_C, MPI_INT, &interior);
  MPI_Type_commit(&interior);

  MPI_File fh;
  CHECK_EQ_INT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_set_view(fh, 0, MPI_INT, fileBlock, "native", MPI_INFO_NULL), MPI_SUCCESS);
  MPI_Status status;
  CHECK_EQ_INT(MPI_File_write_all(fh, local, 1, interior, &status), MPI_SUCCESS);
  int count = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, lrows * lcols);
  CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);
  MPI_Type_free(&fileBlock);
  MPI_Type_free(&interior);
  free(local);

  /* Rank 0 alone reads the global array back with plain reads. */
  if (rank == 0) {
    CHECK_EQ_INT(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh),
                 MPI_SUCCESS);
    MPI_Offset fileSize = -1;
    MPI_File_get_size(fh, &fileSize);
    CHECK_EQ_INT(fileSize, ROWS * COLS * (int)sizeof(int));
    int global[ROWS][COLS];
    for (int r = 0; r < ROWS; ++r) {
      CHECK_EQ_INT(MPI_File_read(fh, global[r], COLS, MPI_INT, &status), MPI_SUCCESS);
    }
    for (int r = 0; r < ROWS; ++r)
      for (int c = 0; c < COLS; ++c) CHECK_EQ_INT(global[r][c], r * 100 + c);
    CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);
    /* DELETE_ON_CLOSE removed it. */
    CHECK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  interleavedRecords(rank, size);
  decomposition2d(rank, size);
  MPI_Finalize();
  return 0;
}
