/* Shared file pointers: write_shared from every rank places each record exactly once;
 * write_ordered/read_ordered go in rank order (also through a view and as split
 * collectives); seek_shared and get_position_shared; MPI_MODE_APPEND starts the shared
 * pointer at the end of the file; a sequential file is written with shared pointers only.
 * zmpi-test-ranks: 1 2 4
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "io_tmpname.h"

#define PER_RANK 20
#define WIDTH 4 /* ints per record */

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char path[512];
  io_tmpname(MPI_COMM_WORLD, "shared", path, sizeof path);

  MPI_File fh;
  CHECK_EQ_INT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh), MPI_SUCCESS);

  /* Records appended through the shared pointer, in whatever order ranks get there. */
  int record[WIDTH];
  for (int j = 0; j < PER_RANK; ++j) {
    for (int k = 0; k < WIDTH; ++k) record[k] = rank * 1000 + j;
    CHECK_EQ_INT(MPI_File_write_shared(fh, record, WIDTH, MPI_INT, MPI_STATUS_IGNORE), MPI_SUCCESS);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Offset position = -1;
  CHECK_EQ_INT(MPI_File_get_position_shared(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, (MPI_Offset)size * PER_RANK * WIDTH * (MPI_Offset)sizeof(int));
  const int records = size * PER_RANK;
  int* all = malloc(sizeof(int) * (size_t)(records * WIDTH));
  CHECK_EQ_INT(MPI_File_read_at(fh, 0, all, records * WIDTH, MPI_INT, MPI_STATUS_IGNORE), MPI_SUCCESS);
  int* seen = calloc((size_t)(size * PER_RANK), sizeof(int));
  for (int r = 0; r < records; ++r) {
    const int v = all[r * WIDTH];
    for (int k = 1; k < WIDTH; ++k) CHECK_EQ_INT(all[r * WIDTH + k], v); /* records never interleave */
    CHECK(v / 1000 < size && v % 1000 < PER_RANK);
    seen[(v / 1000) * PER_RANK + v % 1000]++;
  }
  for (int i = 0; i < records; ++i) CHECK_EQ_INT(seen[i], 1);
  free(seen);
  free(all);

  /* Ordered: rank r writes r + 1 ints after the lower ranks', all after the records. */
  const MPI_Offset orderedStart = position;
  int mine[8];
  for (int k = 0; k <= rank; ++k) mine[k] = 100 * rank + k;
  MPI_Status status;
  CHECK_EQ_INT(MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &status), MPI_SUCCESS);
  int count = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, rank + 1);
  CHECK_EQ_INT(MPI_File_get_position_shared(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, orderedStart + (MPI_Offset)(size * (size + 1) / 2) * (MPI_Offset)sizeof(int));

  /* Back to the start of the ordered part, and read it in the same order. */
  CHECK_EQ_INT(MPI_File_seek_shared(fh, orderedStart, MPI_SEEK_SET), MPI_SUCCESS);
  int back[8];
  memset(back, 0, sizeof back);
  CHECK_EQ_INT(MPI_File_read_ordered(fh, back, rank + 1, MPI_INT, &status), MPI_SUCCESS);
  for (int k = 0; k <= rank; ++k) CHECK_EQ_INT(back[k], 100 * rank + k);
  CHECK_EQ_INT(MPI_File_seek_shared(fh, -(MPI_Offset)sizeof(int), MPI_SEEK_END), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_position_shared(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, orderedStart + (MPI_Offset)(size * (size + 1) / 2 - 1) * (MPI_Offset)sizeof(int));

  /* Through a view of ints from the ordered part on, as split collectives: positions count
   * ints, and set_view put the shared pointer back to the view's start. */
  CHECK_EQ_INT(MPI_File_set_view(fh, orderedStart, MPI_INT, MPI_INT, "native", MPI_INFO_NULL), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_position_shared(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, 0);
  CHECK_EQ_INT(MPI_File_read_ordered_begin(fh, back, rank + 1, MPI_INT), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_read_ordered_end(fh, back, &status), MPI_SUCCESS);
  for (int k = 0; k <= rank; ++k) CHECK_EQ_INT(back[k], 100 * rank + k);
  CHECK_EQ_INT(MPI_File_get_position_shared(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, size * (size + 1) / 2);
  CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);

  /* APPEND: the shared pointer starts at the end; nothing written so far is overwritten. */
  MPI_Offset before = 0;
  CHECK_EQ_INT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL, &fh), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_size(fh, &before), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_position_shared(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, before);
  CHECK_EQ_INT(MPI_File_write_ordered(fh, &rank, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh),
               MPI_SUCCESS);
  /* Sequential: shared pointers only; MPI_DISPLACEMENT_CURRENT starts the view there. */
  CHECK_EQ_INT(MPI_File_seek_shared(fh, before, MPI_SEEK_SET), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL), MPI_SUCCESS);
  MPI_Offset disp = -1;
  MPI_Datatype etype, filetype;
  char datarep[MPI_MAX_DATAREP_STRING];
  CHECK_EQ_INT(MPI_File_get_view(fh, &disp, &etype, &filetype, datarep), MPI_SUCCESS);
  CHECK_EQ_INT(disp, before);
  int appended = -1;
  CHECK_EQ_INT(MPI_File_read_ordered(fh, &appended, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_SUCCESS);
  CHECK_EQ_INT(appended, rank);
  CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);

  MPI_Finalize();
  return 0;
}
