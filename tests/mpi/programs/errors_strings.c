/* Error classes, codes and strings: the predefined ones read like Open MPI's, and the
 * classes, codes and strings a program adds behave as MPI-3.1 section 8.5 says.
 * zmpi-test-ranks: 1 2
 */
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  char text[MPI_MAX_ERROR_STRING];
  int length = -1, cls = -1;

  CHECK_EQ_INT(MPI_Error_string(MPI_ERR_RANK, text, &length), MPI_SUCCESS);
  CHECK(strcmp(text, "MPI_ERR_RANK: invalid rank") == 0);
  CHECK_EQ_INT(length, (int)strlen(text));
  CHECK_EQ_INT(MPI_Error_string(MPI_SUCCESS, text, &length), MPI_SUCCESS);
  CHECK(strncmp(text, "MPI_SUCCESS", 11) == 0);
  CHECK_EQ_INT(MPI_Error_class(MPI_ERR_TRUNCATE, &cls), MPI_SUCCESS);
  CHECK_EQ_INT(cls, MPI_ERR_TRUNCATE);
  /* Codes that were never handed out are an argument error, not a crash. */
  CHECK_EQ_INT(MPI_Error_string(-7, text, &length), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Error_class(12345, &cls), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Error_string(MPI_ERR_RANK, NULL, &length), MPI_ERR_ARG);

  /* A new class, two codes in it, strings for both. */
  int myClass, code1, code2;
  CHECK_EQ_INT(MPI_Add_error_class(&myClass), MPI_SUCCESS);
  CHECK(myClass > MPI_ERR_LASTCODE);
  CHECK_EQ_INT(MPI_Add_error_code(myClass, &code1), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Add_error_code(myClass, &code2), MPI_SUCCESS);
  CHECK(code1 != code2 && code1 != myClass);
  CHECK_EQ_INT(MPI_Error_class(code2, &cls), MPI_SUCCESS);
  CHECK_EQ_INT(cls, myClass);
  CHECK_EQ_INT(MPI_Error_class(myClass, &cls), MPI_SUCCESS);
  CHECK_EQ_INT(cls, myClass);
  /* No string yet: the empty string. */
  CHECK_EQ_INT(MPI_Error_string(code1, text, &length), MPI_SUCCESS);
  CHECK_EQ_INT(length, 0);
  CHECK_EQ_INT(MPI_Add_error_string(code1, "my first error"), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Error_string(code1, text, &length), MPI_SUCCESS);
  CHECK(strcmp(text, "my first error") == 0);
  CHECK_EQ_INT(MPI_Add_error_string(myClass, "my class"), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Error_string(myClass, text, &length), MPI_SUCCESS);
  CHECK(strcmp(text, "my class") == 0);
  /* Predefined strings cannot change; unknown codes and classes are refused. */
  CHECK_EQ_INT(MPI_Add_error_string(MPI_ERR_RANK, "nope"), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Add_error_string(code2 + 1000, "nope"), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Add_error_code(code1 + 1000, &code2), MPI_ERR_ARG);
  char tooLong[MPI_MAX_ERROR_STRING + 10];
  memset(tooLong, 'x', sizeof tooLong - 1);
  tooLong[sizeof tooLong - 1] = '\0';
  CHECK_EQ_INT(MPI_Add_error_string(code2, tooLong), MPI_ERR_ARG);

  /* MPI_LASTUSEDCODE follows the additions. */
  int* lastUsed = NULL;
  int flag = 0;
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastUsed, &flag), MPI_SUCCESS);
  CHECK(flag);
  CHECK(*lastUsed >= code1 && *lastUsed >= code2);

  /* A user code travels through an error handler like a predefined one. */
  CHECK_EQ_INT(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code1), MPI_SUCCESS);
  MPI_Finalize();
  return 0;
}
