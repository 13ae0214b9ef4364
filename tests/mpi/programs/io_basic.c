/* MPI-IO basics: every rank writes its block with write_at_all and reads the next rank's
 * back; individual file pointers (seek, read, get_position, short reads at the end of the
 * file); nonblocking and split collective forms; size, preallocate, sync; amode, group,
 * info, atomicity; delete.
 * zmpi-test-ranks: 1 2 4
 */
#include <string.h>

#include "check.h"
#include "io_tmpname.h"

#define N 1000

static int value(int rank, int i) { return rank * 100000 + i; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char path[512];
  io_tmpname(MPI_COMM_WORLD, "basic", path, sizeof path);

  MPI_File fh;
  CHECK_EQ_INT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh), MPI_SUCCESS);
  CHECK(fh != MPI_FILE_NULL);

  /* Each rank's block at rank * N ints (the default view: bytes from offset 0). */
  int mine[N], back[N];
  for (int i = 0; i < N; ++i) mine[i] = value(rank, i);
  const MPI_Offset block = (MPI_Offset)N * (MPI_Offset)sizeof(int);
  MPI_Status status;
  CHECK_EQ_INT(MPI_File_write_at_all(fh, rank * block, mine, N, MPI_INT, &status), MPI_SUCCESS);
  int count = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, N);
  MPI_Offset fileSize = -1;
  CHECK_EQ_INT(MPI_File_get_size(fh, &fileSize), MPI_SUCCESS);
  CHECK_EQ_INT(fileSize, size * block);

  /* The next rank's block, written by someone else. */
  const int next = (rank + 1) % size;
  memset(back, 0, sizeof back);
  CHECK_EQ_INT(MPI_File_read_at_all(fh, next * block, back, N, MPI_INT, &status), MPI_SUCCESS);
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, N);
  for (int i = 0; i < N; ++i) CHECK_EQ_INT(back[i], value(next, i));

  /* Individual file pointer: seek to the next block, read half, the position follows. */
  CHECK_EQ_INT(MPI_File_seek(fh, next * block, MPI_SEEK_SET), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_read(fh, back, N / 2, MPI_INT, &status), MPI_SUCCESS);
  MPI_Offset position = -1;
  CHECK_EQ_INT(MPI_File_get_position(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, next * block + block / 2);
  CHECK_EQ_INT(MPI_File_read_all(fh, back + N / 2, N / 2, MPI_INT, &status), MPI_SUCCESS);
  for (int i = 0; i < N; ++i) CHECK_EQ_INT(back[i], value(next, i));
  CHECK_EQ_INT(MPI_File_seek(fh, -4, MPI_SEEK_CUR), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_position(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, (next + 1) * block - 4);

  /* A read crossing the end of the file is short: two ints of the five asked for. */
  CHECK_EQ_INT(MPI_File_seek(fh, -2 * (MPI_Offset)sizeof(int), MPI_SEEK_END), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_read(fh, back, 5, MPI_INT, &status), MPI_SUCCESS);
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, 2);
  CHECK_EQ_INT(back[1], value(size - 1, N - 1));
  CHECK_EQ_INT(MPI_File_get_position(fh, &position), MPI_SUCCESS);
  CHECK_EQ_INT(position, fileSize);
  CHECK_EQ_INT(MPI_File_read_at(fh, fileSize + 100, back, 5, MPI_INT, &status), MPI_SUCCESS);
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, 0);
  MPI_Offset byteOffset = -1;
  CHECK_EQ_INT(MPI_File_get_byte_offset(fh, 12, &byteOffset), MPI_SUCCESS);
  CHECK_EQ_INT(byteOffset, 12);

  /* Nonblocking forms complete through MPI_Wait with the same status. */
  MPI_Request request;
  const int marker[2] = {-rank - 1, rank};
  CHECK_EQ_INT(MPI_File_iwrite_at(fh, rank * block, marker, 2, MPI_INT, &request), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Wait(&request, &status), MPI_SUCCESS);
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, 2);
  CHECK_EQ_INT(MPI_File_iread_at(fh, rank * block, back, 2, MPI_INT, &request), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Wait(&request, &status), MPI_SUCCESS);
  CHECK_EQ_INT(back[0], -rank - 1);

  /* Split collective: the status arrives with *_end. */
  CHECK_EQ_INT(MPI_File_write_at_all_begin(fh, rank * block, mine, 2, MPI_INT), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_write_at_all_end(fh, mine, &status), MPI_SUCCESS);
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, 2);
  CHECK_EQ_INT(MPI_File_read_at_all_begin(fh, next * block, back, N, MPI_INT), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_read_at_all_end(fh, back, &status), MPI_SUCCESS);
  for (int i = 0; i < N; ++i) CHECK_EQ_INT(back[i], value(next, i));

  /* Size, preallocation and sync are collective. */
  CHECK_EQ_INT(MPI_File_sync(fh), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_set_size(fh, block), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_size(fh, &fileSize), MPI_SUCCESS);
  CHECK_EQ_INT(fileSize, block);
  MPI_Barrier(MPI_COMM_WORLD); /* every rank saw the size before anyone changes it again */
  CHECK_EQ_INT(MPI_File_preallocate(fh, 2 * block), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_size(fh, &fileSize), MPI_SUCCESS);
  CHECK_EQ_INT(fileSize, 2 * block);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_EQ_INT(MPI_File_preallocate(fh, 10), MPI_SUCCESS); /* never shrinks */
  CHECK_EQ_INT(MPI_File_get_size(fh, &fileSize), MPI_SUCCESS);
  CHECK_EQ_INT(fileSize, 2 * block);

  /* What the file knows about itself. */
  int amode = 0;
  CHECK_EQ_INT(MPI_File_get_amode(fh, &amode), MPI_SUCCESS);
  CHECK_EQ_INT(amode, MPI_MODE_CREATE | MPI_MODE_RDWR);
  MPI_Group fileGroup, worldGroup;
  CHECK_EQ_INT(MPI_File_get_group(fh, &fileGroup), MPI_SUCCESS);
  MPI_Comm_group(MPI_COMM_WORLD, &worldGroup);
  int same = MPI_UNEQUAL;
  MPI_Group_compare(fileGroup, worldGroup, &same);
  CHECK_EQ_INT(same, MPI_IDENT);
  MPI_Group_free(&fileGroup);
  MPI_Group_free(&worldGroup);

  MPI_Info hints;
  CHECK_EQ_INT(MPI_File_get_info(fh, &hints), MPI_SUCCESS);
  char text[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  MPI_Info_get(hints, "cb_nodes", MPI_MAX_INFO_VAL, text, &flag);
  CHECK(flag);
  CHECK_EQ_INT(atoi(text), size);
  MPI_Info_free(&hints);
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "access_style", "read_mostly");
  CHECK_EQ_INT(MPI_File_set_info(fh, hints), MPI_SUCCESS);
  MPI_Info_free(&hints);
  CHECK_EQ_INT(MPI_File_get_info(fh, &hints), MPI_SUCCESS);
  MPI_Info_get(hints, "access_style", MPI_MAX_INFO_VAL, text, &flag);
  CHECK(flag && strcmp(text, "read_mostly") == 0);
  MPI_Info_free(&hints);

  CHECK_EQ_INT(MPI_File_get_atomicity(fh, &flag), MPI_SUCCESS);
  CHECK_EQ_INT(flag, 0);
  CHECK_EQ_INT(MPI_File_set_atomicity(fh, 1), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_atomicity(fh, &flag), MPI_SUCCESS);
  CHECK_EQ_INT(flag, 1);
  CHECK_EQ_INT(MPI_File_write_at(fh, rank * sizeof(int), &rank, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_SUCCESS);

  CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);
  CHECK(fh == MPI_FILE_NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK_EQ_INT(MPI_File_delete(path, MPI_INFO_NULL), MPI_SUCCESS);
  MPI_Barrier(MPI_COMM_WORLD);
  int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  int errorClass = -1;
  MPI_Error_class(rc, &errorClass);
  CHECK_EQ_INT(errorClass, MPI_ERR_NO_SUCH_FILE);
  CHECK(fh == MPI_FILE_NULL);

  MPI_Finalize();
  return 0;
}
