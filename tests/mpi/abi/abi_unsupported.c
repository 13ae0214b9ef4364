/* A function zmpi does not implement yet must fail loudly, never succeed silently
 * (DESIGN.md): called through its exported symbol, MPI_X and PMPI_X return
 * MPI_ERR_UNSUPPORTED_OPERATION under MPI_ERRORS_RETURN, and an error handler is told the
 * function's name. With "fatal" the default handler must end the process instead.
 *   abi_unsupported MPI_X return|fatal
 * The function is called with no arguments: stubs take none (mpi/abi/gen_stubs.py). */
#include <dlfcn.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char reported[128];
static int reportedCode = MPI_SUCCESS;

static void record(MPI_Comm* comm, int* code, ...) {
  va_list args;
  va_start(args, code);
  const char* call = va_arg(args, const char*);
  va_end(args);
  reportedCode = *code;
  strncpy(reported, call ? call : "", sizeof reported - 1);
}

static int fail(const char* what, const char* name, int value) {
  fprintf(stderr, "abi_unsupported: %s: %s (%d)\n", name, what, value);
  return 1;
}

int main(int argc, char** argv) {
  if (argc != 3) return fail("usage: abi_unsupported MPI_X return|fatal", "", 0);
  const char* name = argv[1];
  char pname[128];
  snprintf(pname, sizeof pname, "P%s", name);
  MPI_Init(&argc, &argv);
  typedef int (*Stub)(void);
  Stub function = (Stub)dlsym(RTLD_DEFAULT, name);
  Stub pfunction = (Stub)dlsym(RTLD_DEFAULT, pname);
  if (!function || !pfunction) return fail("not exported", name, 0);

  if (strcmp(argv[2], "fatal") == 0) {
    int rc = function();
    return fail("returned under MPI_ERRORS_ARE_FATAL", name, rc);
  }

  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = function();
  if (rc != MPI_ERR_UNSUPPORTED_OPERATION) return fail("MPI_X did not return MPI_ERR_UNSUPPORTED_OPERATION", name, rc);
  rc = pfunction();
  if (rc != MPI_ERR_UNSUPPORTED_OPERATION)
    return fail("PMPI_X did not return MPI_ERR_UNSUPPORTED_OPERATION", pname, rc);

  MPI_Errhandler handler;
  MPI_Comm_create_errhandler(record, &handler);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
  rc = function();
  if (rc != MPI_ERR_UNSUPPORTED_OPERATION) return fail("wrong code with a program's handler", name, rc);
  if (reportedCode != MPI_ERR_UNSUPPORTED_OPERATION) return fail("handler saw the wrong code", name, reportedCode);
  if (strcmp(reported, name) != 0) return fail("handler was not told the function's name", reported, 0);
  MPI_Errhandler_free(&handler);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Finalize();
  printf("abi_unsupported: %s fails with MPI_ERR_UNSUPPORTED_OPERATION\n", name);
  return 0;
}
