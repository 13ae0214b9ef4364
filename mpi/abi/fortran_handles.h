#pragma once
// The Fortran indices of Open MPI's predefined handles (its mpif-handles.h: MPI_COMM_WORLD =
// 0, MPI_INTEGER = 7, MPI_SUM = 3, ...), one list for both sides: the C library puts these
// handles at these indices of its Fortran tables (capi/handle_conversion.cc), and zmpi's
// Fortran library (fortran/) resolves the most used ones without a call into it.
// X(index, handle expression). MPI_INTEGER16, MPI_REAL2, MPI_LB and MPI_UB are named by
// symbol (ZMPI_FORTRAN_SYMBOL_DATATYPES): this Open MPI's mpi.h defines no macro for them.
#include <mpi.h>

#define ZMPI_FORTRAN_COMMS(X) \
  X(0, MPI_COMM_WORLD)        \
  X(1, MPI_COMM_SELF)         \
  X(2, MPI_COMM_NULL)

#define ZMPI_FORTRAN_GROUPS(X) \
  X(0, MPI_GROUP_NULL)         \
  X(1, MPI_GROUP_EMPTY)

#define ZMPI_FORTRAN_DATATYPES(X)    \
  X(0, MPI_DATATYPE_NULL)            \
  X(1, MPI_BYTE)                     \
  X(2, MPI_PACKED)                   \
  X(5, MPI_CHARACTER)                \
  X(6, MPI_LOGICAL)                  \
  X(7, MPI_INTEGER)                  \
  X(8, MPI_INTEGER1)                 \
  X(9, MPI_INTEGER2)                 \
  X(10, MPI_INTEGER4)                \
  X(11, MPI_INTEGER8)                \
  X(13, MPI_REAL)                    \
  X(14, MPI_REAL4)                   \
  X(15, MPI_REAL8)                   \
  X(16, MPI_REAL16)                  \
  X(17, MPI_DOUBLE_PRECISION)        \
  X(18, MPI_COMPLEX)                 \
  X(19, MPI_COMPLEX8)                \
  X(20, MPI_COMPLEX16)               \
  X(21, MPI_COMPLEX32)               \
  X(22, MPI_DOUBLE_COMPLEX)          \
  X(23, MPI_2REAL)                   \
  X(24, MPI_2DOUBLE_PRECISION)       \
  X(25, MPI_2INTEGER)                \
  X(26, MPI_2COMPLEX)                \
  X(27, MPI_2DOUBLE_COMPLEX)         \
  X(29, MPI_LOGICAL1)                \
  X(30, MPI_LOGICAL2)                \
  X(31, MPI_LOGICAL4)                \
  X(32, MPI_LOGICAL8)                \
  X(33, MPI_WCHAR)                   \
  X(34, MPI_CHAR)                    \
  X(35, MPI_UNSIGNED_CHAR)           \
  X(36, MPI_SIGNED_CHAR)             \
  X(37, MPI_SHORT)                   \
  X(38, MPI_UNSIGNED_SHORT)          \
  X(39, MPI_INT)                     \
  X(40, MPI_UNSIGNED)                \
  X(41, MPI_LONG)                    \
  X(42, MPI_UNSIGNED_LONG)           \
  X(43, MPI_LONG_LONG_INT)           \
  X(44, MPI_UNSIGNED_LONG_LONG)      \
  X(45, MPI_FLOAT)                   \
  X(46, MPI_DOUBLE)                  \
  X(47, MPI_LONG_DOUBLE)             \
  X(48, MPI_FLOAT_INT)               \
  X(49, MPI_DOUBLE_INT)              \
  X(50, MPI_LONG_DOUBLE_INT)         \
  X(51, MPI_LONG_INT)                \
  X(52, MPI_2INT)                    \
  X(53, MPI_SHORT_INT)               \
  X(54, MPI_CXX_BOOL)                \
  X(55, MPI_CXX_FLOAT_COMPLEX)       \
  X(56, MPI_CXX_DOUBLE_COMPLEX)      \
  X(57, MPI_CXX_LONG_DOUBLE_COMPLEX) \
  X(58, MPI_INT8_T)                  \
  X(59, MPI_UINT8_T)                 \
  X(60, MPI_INT16_T)                 \
  X(61, MPI_UINT16_T)                \
  X(62, MPI_INT32_T)                 \
  X(63, MPI_UINT32_T)                \
  X(64, MPI_INT64_T)                 \
  X(65, MPI_UINT64_T)                \
  X(66, MPI_AINT)                    \
  X(67, MPI_OFFSET)                  \
  X(68, MPI_C_BOOL)                  \
  X(69, MPI_C_FLOAT_COMPLEX)         \
  X(70, MPI_C_DOUBLE_COMPLEX)        \
  X(71, MPI_C_LONG_DOUBLE_COMPLEX)   \
  X(72, MPI_COUNT)

#define ZMPI_FORTRAN_SYMBOL_DATATYPES(X) \
  X(3, ompi_mpi_ub)                      \
  X(4, ompi_mpi_lb)                      \
  X(12, ompi_mpi_integer16)              \
  X(28, ompi_mpi_real2)

#define ZMPI_FORTRAN_OPS(X) \
  X(0, MPI_OP_NULL)         \
  X(1, MPI_MAX)             \
  X(2, MPI_MIN)             \
  X(3, MPI_SUM)             \
  X(4, MPI_PROD)            \
  X(5, MPI_LAND)            \
  X(6, MPI_BAND)            \
  X(7, MPI_LOR)             \
  X(8, MPI_BOR)             \
  X(9, MPI_LXOR)            \
  X(10, MPI_BXOR)           \
  X(11, MPI_MAXLOC)         \
  X(12, MPI_MINLOC)         \
  X(13, MPI_REPLACE)        \
  X(14, MPI_NO_OP)

#define ZMPI_FORTRAN_REQUESTS(X) X(0, MPI_REQUEST_NULL)

#define ZMPI_FORTRAN_MESSAGES(X) \
  X(0, MPI_MESSAGE_NULL)         \
  X(1, MPI_MESSAGE_NO_PROC)

#define ZMPI_FORTRAN_ERRHANDLERS(X) \
  X(0, MPI_ERRHANDLER_NULL)         \
  X(1, MPI_ERRORS_ARE_FATAL)        \
  X(2, MPI_ERRORS_RETURN)

#define ZMPI_FORTRAN_INFOS(X) \
  X(0, MPI_INFO_NULL)         \
  X(1, MPI_INFO_ENV)

#define ZMPI_FORTRAN_WINS(X) X(0, MPI_WIN_NULL)

#define ZMPI_FORTRAN_FILES(X) X(0, MPI_FILE_NULL)
