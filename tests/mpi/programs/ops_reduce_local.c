/* MPI_Reduce_local with predefined ops (integers, floating, complex, bool, MAXLOC/MINLOC
 * pairs, a derived vector type), user ops (commutative and not: the left operand is
 * inbuf), MPI_Op_commutative, MPI_Op_free, and MPI_ERR_OP for an op/type mismatch.
 */
// zmpi-test-ranks: 1 2
#include <complex.h>
#include <stdbool.h>

#include "check.h"

#define N 10

static int userCalls;

/* inout = in * 10 + inout: the digits show the operand order. */
static void digits(void* in, void* inout, int* len, MPI_Datatype* type) {
  ++userCalls;
  CHECK(*type == MPI_INT);
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] = ((int*)in)[i] * 10 + ((int*)inout)[i];
}

/* Sums the first int of each element of a 2-int contiguous type, whose handle it receives. */
static MPI_Datatype pairType;
static void firstOfPair(void* in, void* inout, int* len, MPI_Datatype* type) {
  CHECK(*type == pairType);
  for (int i = 0; i < *len; ++i) ((int*)inout)[2 * i] += ((int*)in)[2 * i];
}

static void predefined(void) {
  int a[N], b[N];
  for (int i = 0; i < N; ++i) {
    a[i] = i - 3;
    b[i] = 2 * i - 9;
  }
  MPI_Reduce_local(a, b, N, MPI_INT, MPI_MAX);
  for (int i = 0; i < N; ++i) CHECK_EQ_INT(b[i], i - 3 > 2 * i - 9 ? i - 3 : 2 * i - 9);

  unsigned long x[2] = {0xf0f0UL, 3}, y[2] = {0xff00UL, 5};
  MPI_Reduce_local(x, y, 2, MPI_UNSIGNED_LONG, MPI_BXOR);
  CHECK(y[0] == (0xf0f0UL ^ 0xff00UL) && y[1] == 6);

  double d[3] = {1.5, 2, -1}, e[3] = {2, 0.5, 4};
  MPI_Reduce_local(d, e, 3, MPI_DOUBLE, MPI_PROD);
  CHECK(e[0] == 3 && e[1] == 1 && e[2] == -4);

  double complex c = 1 + 2 * I, z = 3 - I;
  MPI_Reduce_local(&c, &z, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD);
  CHECK(creal(z) == 5 && cimag(z) == 5);

  bool p[3] = {true, false, true}, q[3] = {true, true, false};
  MPI_Reduce_local(p, q, 3, MPI_C_BOOL, MPI_LXOR);
  CHECK(!q[0] && q[1] && q[2]);

  struct {
    double value;
    int index;
  } in[3] = {{1, 0}, {5, 1}, {7, 2}}, inout[3] = {{2, 3}, {5, 0}, {7, 4}};
  MPI_Reduce_local(in, inout, 3, MPI_DOUBLE_INT, MPI_MAXLOC);
  CHECK(inout[0].value == 2 && inout[0].index == 3);
  CHECK(inout[1].value == 5 && inout[1].index == 0);
  CHECK(inout[2].value == 7 && inout[2].index == 2); /* tie: the lower index */

  struct {
    short value;
    int index;
  } s[2] = {{-1, 9}, {4, 8}}, t[2] = {{0, 1}, {4, 2}};
  MPI_Reduce_local(s, t, 2, MPI_SHORT_INT, MPI_MINLOC);
  CHECK(t[0].value == -1 && t[0].index == 9);
  CHECK(t[1].value == 4 && t[1].index == 2);

  /* A vector type: every other float, the gaps untouched. */
  MPI_Datatype everyOther;
  MPI_Type_vector(3, 1, 2, MPI_FLOAT, &everyOther);
  MPI_Type_commit(&everyOther);
  float f[5] = {1, 100, 2, 100, 3}, g[5] = {10, -1, 20, -1, 30};
  MPI_Reduce_local(f, g, 1, everyOther, MPI_SUM);
  CHECK(g[0] == 11 && g[1] == -1 && g[2] == 22 && g[3] == -1 && g[4] == 33);
  MPI_Type_free(&everyOther);

  /* Zero count is fine even with null buffers. */
  MPI_Reduce_local(NULL, NULL, 0, MPI_INT, MPI_SUM);
}

static void userOps(void) {
  MPI_Op op;
  int commute;
  MPI_Op_create(digits, 0, &op);
  MPI_Op_commutative(op, &commute);
  CHECK_EQ_INT(commute, 0);
  int in[3] = {1, 2, 3}, inout[3] = {4, 5, 6};
  userCalls = 0;
  MPI_Reduce_local(in, inout, 3, MPI_INT, op);
  CHECK_EQ_INT(userCalls, 1);
  CHECK(inout[0] == 14 && inout[1] == 25 && inout[2] == 36);
  MPI_Op_free(&op);
  CHECK(op == MPI_OP_NULL);

  MPI_Type_contiguous(2, MPI_INT, &pairType);
  MPI_Type_commit(&pairType);
  MPI_Op_create(firstOfPair, 1, &op);
  MPI_Op_commutative(op, &commute);
  CHECK_EQ_INT(commute, 1);
  int a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40};
  MPI_Reduce_local(a, b, 2, pairType, op);
  CHECK(b[0] == 11 && b[1] == 20 && b[2] == 33 && b[3] == 40);
  MPI_Op_free(&op);
  MPI_Type_free(&pairType);

  MPI_Op_commutative(MPI_SUM, &commute);
  CHECK_EQ_INT(commute, 1);
}

static void errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  double a = 1, b = 2;
  int class;
  MPI_Error_class(MPI_Reduce_local(&a, &b, 1, MPI_DOUBLE, MPI_BAND), &class);
  CHECK_EQ_INT(class, MPI_ERR_OP);
  MPI_Error_class(MPI_Reduce_local(&a, &b, 1, MPI_DOUBLE, MPI_OP_NULL), &class);
  CHECK_EQ_INT(class, MPI_ERR_OP);
  MPI_Op sum = MPI_SUM;
  MPI_Error_class(MPI_Op_free(&sum), &class);
  CHECK_EQ_INT(class, MPI_ERR_OP);
  MPI_Error_class(MPI_Reduce_local(&a, &b, -1, MPI_DOUBLE, MPI_SUM), &class);
  CHECK_EQ_INT(class, MPI_ERR_COUNT);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  predefined();
  userOps();
  errors();
  MPI_Finalize();
  return 0;
}
