/* The MPI tools interface (MPI-3.1 chapter 14) over zmpi's settings registry: init and
 * finalize nest; cvars are listed, found by name, described, read (an integer set in the
 * environment, an enum), never written; enums list their items; categories hold the cvars
 * and pvars; pvar sessions and handles count messages and rendezvous sends while started;
 * and every error case returns Open MPI's MPI_T_ERR_* code.
 * zmpi-test-ranks: 2 3
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define CHECK_OK(call) CHECK_EQ_INT((call), MPI_SUCCESS)

static int cvarIndex(const char* name) {
  int index = -1;
  CHECK_OK(MPI_T_cvar_get_index(name, &index));
  return index;
}

static int pvarIndex(const char* name, int varClass) {
  int index = -1;
  CHECK_OK(MPI_T_pvar_get_index(name, varClass, &index));
  return index;
}

static void checkCvars(void) {
  int count = 0;
  CHECK_OK(MPI_T_cvar_get_num(&count));
  CHECK(count > 40);
  /* Every cvar describes itself; names are unique and ZMPI_*. */
  for (int i = 0; i < count; ++i) {
    char name[128], desc[512];
    int nameLen = sizeof name, descLen = sizeof desc, verbosity, bind, scope;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    CHECK_OK(MPI_T_cvar_get_info(i, name, &nameLen, &verbosity, &type, &enumtype, desc, &descLen, &bind, &scope));
    CHECK(strncmp(name, "ZMPI_", 5) == 0);
    CHECK_EQ_INT(nameLen, (int)strlen(name) + 1);
    CHECK(descLen > 1);
    CHECK(type == MPI_INT || type == MPI_COUNT || type == MPI_CHAR);
    CHECK_EQ_INT(bind, MPI_T_BIND_NO_OBJECT);
    CHECK_EQ_INT(scope, MPI_T_SCOPE_READONLY);
    CHECK_EQ_INT(cvarIndex(name), i);
  }
  /* Length only: a zero length asks for the length. */
  int nameLen = 0;
  CHECK_OK(
      MPI_T_cvar_get_info(cvarIndex("ZMPI_EAGER_LIMIT"), NULL, &nameLen, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  CHECK_EQ_INT(nameLen, (int)strlen("ZMPI_EAGER_LIMIT") + 1);
  /* A short buffer gets a truncated, terminated name. */
  char shortName[5];
  nameLen = sizeof shortName;
  CHECK_OK(MPI_T_cvar_get_info(cvarIndex("ZMPI_EAGER_LIMIT"), shortName, &nameLen, NULL, NULL, NULL, NULL, NULL, NULL,
                               NULL));
  CHECK(strcmp(shortName, "ZMPI") == 0);
  CHECK_EQ_INT(nameLen, 5);

  /* An integer: the default when unset (the ring size; no test sets it). */
  MPI_T_cvar_handle handle;
  int elements = 0, value = 0;
  CHECK_OK(MPI_T_cvar_handle_alloc(cvarIndex("ZMPI_SHM_RING_BYTES"), NULL, &handle, &elements));
  CHECK_EQ_INT(elements, 1);
  CHECK_OK(MPI_T_cvar_read(handle, &value));
  CHECK_EQ_INT(value, 512 * 1024); /* the default: unset */
  CHECK_EQ_INT(MPI_T_cvar_write(handle, &value), MPI_T_ERR_CVAR_SET_NEVER);
  CHECK_OK(MPI_T_cvar_handle_free(&handle));
  CHECK(handle == MPI_T_CVAR_HANDLE_NULL);

  /* A string with choices is an enum: ZMPI_TRANSPORT's items are shm, ipc, tcp. */
  MPI_Datatype type;
  MPI_T_enum enumtype;
  CHECK_OK(
      MPI_T_cvar_get_info(cvarIndex("ZMPI_TRANSPORT"), NULL, NULL, NULL, &type, &enumtype, NULL, NULL, NULL, NULL));
  CHECK(type == MPI_INT);
  CHECK(enumtype != MPI_T_ENUM_NULL);
  int items = 0;
  char enumName[64];
  int enumNameLen = sizeof enumName;
  CHECK_OK(MPI_T_enum_get_info(enumtype, &items, enumName, &enumNameLen));
  CHECK_EQ_INT(items, 3);
  CHECK(strcmp(enumName, "ZMPI_TRANSPORT") == 0);
  const char* expected[] = {"shm", "ipc", "tcp"};
  for (int i = 0; i < items; ++i) {
    char item[16];
    int itemLen = sizeof item, itemValue = -5;
    CHECK_OK(MPI_T_enum_get_item(enumtype, i, &itemValue, item, &itemLen));
    CHECK(strcmp(item, expected[i]) == 0);
    CHECK_EQ_INT(itemValue, i);
  }
  CHECK_EQ_INT(MPI_T_enum_get_item(enumtype, items, &value, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
  CHECK_OK(MPI_T_cvar_handle_alloc(cvarIndex("ZMPI_TRANSPORT"), NULL, &handle, &elements));
  CHECK_OK(MPI_T_cvar_read(handle, &value));
  const char* path = getenv("ZMPI_TRANSPORT");
  CHECK_EQ_INT(value, path != NULL && strcmp(path, "tcp") == 0 ? 2 : path != NULL && strcmp(path, "ipc") == 0 ? 1 : 0);
  CHECK_OK(MPI_T_cvar_handle_free(&handle));

  /* A string without choices reads as chars, its count the buffer's size. */
  char text[1024];
  CHECK_OK(MPI_T_cvar_handle_alloc(cvarIndex("ZMPI_BULK_CONGESTION"), NULL, &handle, &elements));
  CHECK(elements >= 16 && elements <= (int)sizeof text);
  CHECK_OK(MPI_T_cvar_read(handle, text));
  CHECK(strcmp(text, getenv("ZMPI_BULK_CONGESTION") ? getenv("ZMPI_BULK_CONGESTION") : "reno") == 0);
  CHECK_OK(MPI_T_cvar_handle_free(&handle));

  /* Errors. */
  int index = 0;
  CHECK_EQ_INT(MPI_T_cvar_get_index("ZMPI_NO_SUCH_SETTING", &index), MPI_T_ERR_INVALID_NAME);
  CHECK_EQ_INT(MPI_T_cvar_get_info(count, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
               MPI_T_ERR_INVALID_INDEX);
  CHECK_EQ_INT(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  CHECK_EQ_INT(MPI_T_cvar_handle_alloc(count, NULL, &handle, &elements), MPI_T_ERR_INVALID_INDEX);
  CHECK_EQ_INT(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &value), MPI_T_ERR_INVALID_HANDLE);
  handle = MPI_T_CVAR_HANDLE_NULL;
  CHECK_EQ_INT(MPI_T_cvar_handle_free(&handle), MPI_T_ERR_INVALID_HANDLE);
  CHECK_EQ_INT(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &items, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
}

static void checkCategories(void) {
  int count = 0;
  CHECK_OK(MPI_T_category_get_num(&count));
  CHECK(count >= 2);
  int cvarTotal = 0, pvarTotal = 0, cvars = 0;
  CHECK_OK(MPI_T_cvar_get_num(&cvars));
  for (int c = 0; c < count; ++c) {
    char name[64];
    int nameLen = sizeof name, numCvars = -1, numPvars = -1, numCategories = -1;
    CHECK_OK(MPI_T_category_get_info(c, name, &nameLen, NULL, NULL, &numCvars, &numPvars, &numCategories));
    int found = -1;
    CHECK_OK(MPI_T_category_get_index(name, &found));
    CHECK_EQ_INT(found, c);
    CHECK_EQ_INT(numCategories, 0);
    int* indices = malloc(sizeof(int) * (size_t)(numCvars + numPvars + 1));
    CHECK_OK(MPI_T_category_get_cvars(c, numCvars, indices));
    for (int i = 0; i < numCvars; ++i) CHECK(indices[i] >= 0 && indices[i] < cvars);
    CHECK_OK(MPI_T_category_get_pvars(c, numPvars, indices));
    CHECK_OK(MPI_T_category_get_categories(c, 0, indices));
    free(indices);
    cvarTotal += numCvars;
    pvarTotal += numPvars;
  }
  int pvars = 0;
  CHECK_OK(MPI_T_pvar_get_num(&pvars));
  CHECK_EQ_INT(cvarTotal, cvars); /* every cvar in exactly one category */
  CHECK_EQ_INT(pvarTotal, pvars);
  int stamp = 0, again = 0;
  CHECK_OK(MPI_T_category_changed(&stamp));
  CHECK_OK(MPI_T_category_changed(&again));
  CHECK_EQ_INT(stamp, again);
  int index = 0;
  CHECK_EQ_INT(MPI_T_category_get_index("no_such_category", &index), MPI_T_ERR_INVALID_NAME);
  CHECK_EQ_INT(MPI_T_category_get_info(count, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  CHECK_EQ_INT(MPI_T_category_get_cvars(-1, 0, NULL), MPI_T_ERR_INVALID_INDEX);
}

static unsigned long long readPvar(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  unsigned long long value = 0;
  CHECK_OK(MPI_T_pvar_read(session, handle, &value));
  return value;
}

static void checkPvars(int rank) {
  int count = 0;
  CHECK_OK(MPI_T_pvar_get_num(&count));
  CHECK(count >= 4);
  for (int i = 0; i < count; ++i) {
    char name[64];
    int nameLen = sizeof name, verbosity, varClass, bind, readonly, continuous, atomic;
    MPI_Datatype type;
    CHECK_OK(MPI_T_pvar_get_info(i, name, &nameLen, &verbosity, &varClass, &type, NULL, NULL, NULL, &bind, &readonly,
                                 &continuous, &atomic));
    CHECK(type == MPI_UNSIGNED_LONG_LONG);
    int found = -1;
    CHECK_OK(MPI_T_pvar_get_index(name, varClass, &found));
    CHECK_EQ_INT(found, i);
  }
  int index = 0;
  CHECK_EQ_INT(MPI_T_pvar_get_index("zmpi_rendezvous_sends", MPI_T_PVAR_CLASS_LEVEL, &index),
               MPI_T_ERR_INVALID_NAME); /* the class is part of the name */

  MPI_T_pvar_session session;
  CHECK_OK(MPI_T_pvar_session_create(&session));
  MPI_T_pvar_handle rendezvous, shm, tcp, queue;
  int elements = 0;
  CHECK_OK(MPI_T_pvar_handle_alloc(session, pvarIndex("zmpi_rendezvous_sends", MPI_T_PVAR_CLASS_COUNTER), NULL,
                                   &rendezvous, &elements));
  CHECK_EQ_INT(elements, 1);
  CHECK_OK(MPI_T_pvar_handle_alloc(session, pvarIndex("zmpi_messages_sent_shm", MPI_T_PVAR_CLASS_COUNTER), NULL, &shm,
                                   &elements));
  CHECK_OK(MPI_T_pvar_handle_alloc(session, pvarIndex("zmpi_messages_sent_tcp", MPI_T_PVAR_CLASS_COUNTER), NULL, &tcp,
                                   &elements));
  CHECK_OK(MPI_T_pvar_handle_alloc(session, pvarIndex("zmpi_unexpected_count", MPI_T_PVAR_CLASS_LEVEL), NULL, &queue,
                                   &elements));

  /* Ranks 0 and 1 exchange; any others (a by-hand run of 3) check the calls only. */
  if (rank > 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_T_pvar_session_free(&session));
    return;
  }
  /* A stopped counter does not count. */
  const int peer = 1 - rank;
  static char large[1 << 20];
  char small[8] = {0};
  MPI_Sendrecv(small, 8, MPI_CHAR, peer, 1, small, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK_EQ_INT(readPvar(session, rendezvous), 0);
  CHECK_EQ_INT(readPvar(session, shm) + readPvar(session, tcp), 0);

  /* Started: small messages count on their path, a 1 MiB message goes by rendezvous. */
  CHECK_OK(MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES));
  for (int i = 0; i < 10; ++i) {
    MPI_Sendrecv(small, 8, MPI_CHAR, peer, 2, small, 8, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  CHECK(readPvar(session, shm) + readPvar(session, tcp) >= 10);
  if (rank == 0) {
    MPI_Send(large, sizeof large, MPI_CHAR, 1, 3, MPI_COMM_WORLD);
  } else {
    MPI_Recv(large, sizeof large, MPI_CHAR, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  CHECK_EQ_INT(readPvar(session, rendezvous), rank == 0 ? 1 : 0);
  CHECK_OK(MPI_T_pvar_stop(session, rendezvous));
  if (rank == 0) MPI_Send(large, sizeof large, MPI_CHAR, 1, 4, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(large, sizeof large, MPI_CHAR, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK_EQ_INT(readPvar(session, rendezvous), rank == 0 ? 1 : 0); /* stopped: kept, not grown */

  /* readreset gives the count and starts again from 0; reset too; write sets it. */
  unsigned long long value = 0;
  CHECK_OK(MPI_T_pvar_readreset(session, rendezvous, &value));
  CHECK_EQ_INT(value, rank == 0 ? 1 : 0);
  CHECK_EQ_INT(readPvar(session, rendezvous), 0);
  value = 41;
  CHECK_OK(MPI_T_pvar_write(session, rendezvous, &value));
  CHECK_EQ_INT(readPvar(session, rendezvous), 41);
  CHECK_OK(MPI_T_pvar_reset(session, rendezvous));
  CHECK_EQ_INT(readPvar(session, rendezvous), 0);

  /* The unexpected queue: a level, continuous and read-only. Rank 1 sends before rank 0
   * receives; after the barrier rank 0 holds it unexpected. */
  if (rank == 1) MPI_Send(small, 8, MPI_CHAR, 0, 5, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int arrived = 0;
    while (!arrived) MPI_Iprobe(1, 5, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE);
    CHECK(readPvar(session, queue) >= 1);
    MPI_Recv(small, 8, MPI_CHAR, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  CHECK_EQ_INT(MPI_T_pvar_start(session, queue), MPI_T_ERR_PVAR_NO_STARTSTOP);
  CHECK_EQ_INT(MPI_T_pvar_stop(session, queue), MPI_T_ERR_PVAR_NO_STARTSTOP);
  CHECK_EQ_INT(MPI_T_pvar_reset(session, queue), MPI_T_ERR_PVAR_NO_WRITE);
  CHECK_EQ_INT(MPI_T_pvar_write(session, queue, &value), MPI_T_ERR_PVAR_NO_WRITE);

  /* Errors: a handle of another session, ALL_HANDLES where one is needed, freed things. */
  MPI_T_pvar_session other;
  CHECK_OK(MPI_T_pvar_session_create(&other));
  CHECK_EQ_INT(MPI_T_pvar_read(other, shm, &value), MPI_T_ERR_INVALID_HANDLE);
  CHECK_EQ_INT(MPI_T_pvar_read(session, MPI_T_PVAR_ALL_HANDLES, &value), MPI_T_ERR_INVALID_HANDLE);
  CHECK_EQ_INT(MPI_T_pvar_handle_alloc(session, count, NULL, &shm, &elements), MPI_T_ERR_INVALID_INDEX);
  CHECK_OK(MPI_T_pvar_session_free(&other));
  CHECK(other == MPI_T_PVAR_SESSION_NULL);
  CHECK_EQ_INT(MPI_T_pvar_start(other, MPI_T_PVAR_ALL_HANDLES), MPI_T_ERR_INVALID_SESSION);
  CHECK_OK(MPI_T_pvar_handle_free(session, &tcp));
  CHECK(tcp == MPI_T_PVAR_HANDLE_NULL);
  CHECK_OK(MPI_T_pvar_stop(session, MPI_T_PVAR_ALL_HANDLES));
  CHECK_OK(MPI_T_pvar_session_free(&session)); /* frees its remaining handles */
}

int main(int argc, char** argv) {
  /* Before MPI_T_init_thread every call but init says so. */
  int count = 0;
  CHECK_EQ_INT(MPI_T_cvar_get_num(&count), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_EQ_INT(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
  int provided = -1;
  /* MPI_T may be used before MPI_Init, and init nests. */
  CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  CHECK_EQ_INT(provided, MPI_THREAD_SINGLE);
  CHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
  CHECK_EQ_INT(provided, MPI_THREAD_MULTIPLE);
  CHECK_OK(MPI_T_cvar_get_num(&count));
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2);
  checkCvars();
  checkCategories();
  checkPvars(rank);
  CHECK_OK(MPI_T_finalize());
  CHECK_OK(MPI_T_cvar_get_num(&count)); /* still initialised once */
  CHECK_OK(MPI_T_finalize());
  CHECK_EQ_INT(MPI_T_cvar_get_num(&count), MPI_T_ERR_NOT_INITIALIZED);
  MPI_Finalize();
  return 0;
}
