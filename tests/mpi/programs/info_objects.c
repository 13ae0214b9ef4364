/* Info objects: set/get/get_valuelen/delete/dup/free/get_nkeys/get_nthkey, insertion
 * order, truncation by valuelen, the limits MPI_MAX_INFO_KEY/VAL and their error classes,
 * and MPI_INFO_ENV.
 * zmpi-test-ranks: 1
 */
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Info info = MPI_INFO_NULL;
  CHECK_EQ_INT(MPI_Info_create(&info), MPI_SUCCESS);
  CHECK(info != MPI_INFO_NULL);
  int nkeys = -1, flag = -1, length = -1;
  CHECK_EQ_INT(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
  CHECK_EQ_INT(nkeys, 0);

  CHECK_EQ_INT(MPI_Info_set(info, "zeta", "1"), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Info_set(info, "alpha", "two words"), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Info_set(info, "mid", "x"), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Info_set(info, "zeta", "replaced"), MPI_SUCCESS); /* in place */
  CHECK_EQ_INT(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
  CHECK_EQ_INT(nkeys, 3);
  char key[MPI_MAX_INFO_KEY + 1];
  const char* order[] = {"zeta", "alpha", "mid"};
  for (int i = 0; i < 3; ++i) {
    CHECK_EQ_INT(MPI_Info_get_nthkey(info, i, key), MPI_SUCCESS);
    CHECK(strcmp(key, order[i]) == 0);
  }
  char value[MPI_MAX_INFO_VAL + 1];
  CHECK_EQ_INT(MPI_Info_get(info, "zeta", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
  CHECK(flag && strcmp(value, "replaced") == 0);
  CHECK_EQ_INT(MPI_Info_get_valuelen(info, "alpha", &length, &flag), MPI_SUCCESS);
  CHECK(flag);
  CHECK_EQ_INT(length, 9);
  /* valuelen bounds the characters copied; the result is always terminated. */
  memset(value, '#', sizeof value);
  CHECK_EQ_INT(MPI_Info_get(info, "alpha", 3, value, &flag), MPI_SUCCESS);
  CHECK(flag && strcmp(value, "two") == 0);
  CHECK_EQ_INT(MPI_Info_get(info, "absent", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
  CHECK_EQ_INT(flag, 0);
  CHECK_EQ_INT(MPI_Info_get_valuelen(info, "absent", &length, &flag), MPI_SUCCESS);
  CHECK_EQ_INT(flag, 0);

  /* dup is a deep copy. */
  MPI_Info copy;
  CHECK_EQ_INT(MPI_Info_dup(info, &copy), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Info_delete(info, "mid"), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Info_get_nkeys(copy, &nkeys), MPI_SUCCESS);
  CHECK_EQ_INT(nkeys, 3);
  CHECK_EQ_INT(MPI_Info_get(copy, "mid", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
  CHECK(flag && strcmp(value, "x") == 0);
  CHECK_EQ_INT(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
  CHECK_EQ_INT(nkeys, 2);

  /* Errors and their classes. */
  char longKey[MPI_MAX_INFO_KEY + 2];
  memset(longKey, 'k', sizeof longKey - 1);
  longKey[sizeof longKey - 1] = '\0';
  CHECK_EQ_INT(MPI_Info_set(info, longKey, "v"), MPI_ERR_INFO_KEY);
  longKey[MPI_MAX_INFO_KEY] = '\0'; /* exactly MPI_MAX_INFO_KEY characters is fine */
  CHECK_EQ_INT(MPI_Info_set(info, longKey, "v"), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY);
  CHECK_EQ_INT(MPI_Info_set(info, NULL, "v"), MPI_ERR_INFO_KEY);
  static char longValue[MPI_MAX_INFO_VAL + 2];
  memset(longValue, 'v', sizeof longValue - 1);
  CHECK_EQ_INT(MPI_Info_set(info, "k", longValue), MPI_ERR_INFO_VALUE);
  CHECK_EQ_INT(MPI_Info_set(info, "k", NULL), MPI_ERR_INFO_VALUE);
  CHECK_EQ_INT(MPI_Info_delete(info, "never-set"), MPI_ERR_INFO_NOKEY);
  CHECK_EQ_INT(MPI_Info_get_nthkey(info, 99, key), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Info_get(info, "zeta", -1, value, &flag), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
  CHECK_EQ_INT(MPI_Info_get_nkeys(MPI_INFO_NULL, &nkeys), MPI_ERR_INFO);
  CHECK_EQ_INT(MPI_Info_create(NULL), MPI_ERR_ARG);

  CHECK_EQ_INT(MPI_Info_free(&info), MPI_SUCCESS);
  CHECK(info == MPI_INFO_NULL);
  CHECK_EQ_INT(MPI_Info_free(&info), MPI_ERR_INFO);
  CHECK_EQ_INT(MPI_Info_free(&copy), MPI_SUCCESS);

  /* MPI_INFO_ENV: how the process was started. */
  CHECK_EQ_INT(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
  CHECK(flag && strstr(value, "info_objects") != NULL);
  CHECK_EQ_INT(MPI_Info_get(MPI_INFO_ENV, "thread_level", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
  CHECK(flag && strncmp(value, "MPI_THREAD_", 11) == 0);
  CHECK_EQ_INT(MPI_Info_get_valuelen(MPI_INFO_ENV, "maxprocs", &length, &flag), MPI_SUCCESS);
  CHECK(flag && length > 0);
  MPI_Info env = MPI_INFO_ENV;
  CHECK_EQ_INT(MPI_Info_free(&env), MPI_ERR_INFO);
  CHECK(env == MPI_INFO_ENV);

  MPI_Finalize();
  return 0;
}
