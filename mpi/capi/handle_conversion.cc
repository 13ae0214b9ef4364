// C <-> Fortran handle conversion (MPI_*_c2f / MPI_*_f2c) and MPI_Status_c2f/f2c.
//
// Fortran names a handle by a small integer. One table per kind maps integers to C
// handles; the predefined handles sit at Open MPI's Fortran indices (mpif-handles.h:
// MPI_COMM_WORLD = 0, MPI_INT = 39, MPI_SUM = 3, ...) and other handles get the next free
// index the first time they are converted. (MPI_INTEGER16 and MPI_REAL2 are named by
// symbol: this Open MPI's mpi.h defines no macro for them.) f2c of an index never handed out gives the
// kind's NULL handle; c2f of an invalid handle gives -1 (as Open MPI does).
// Known limit: nothing tells the table when an object is freed, so an index keeps naming
// the address it was given for, and each request converted adds an entry.
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mpi/abi/predefined_objects.h"
#include "mpi/capi/entry.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

class HandleTable {
 public:
  HandleTable(HandleKind kind, std::initializer_list<std::pair<int, const void*>> predefined) : kind_(kind) {
    for (const auto& [index, handle] : predefined) {
      if (static_cast<size_t>(index) >= handles_.size()) handles_.resize(static_cast<size_t>(index) + 1, nullptr);
      handles_[static_cast<size_t>(index)] = handle;
      indices_[handle] = index;
    }
  }

  template <typename Handle>
  MPI_Fint toFortran(Handle handle) {
    std::lock_guard lock(mutex_);
    if (auto it = indices_.find(handle); it != indices_.end()) return it->second;
    if (!isHandleOf(handle, kind_)) return -1;
    const int index = static_cast<int>(handles_.size());
    handles_.push_back(handle);
    indices_[handle] = index;
    return index;
  }

  template <typename Handle>
  Handle fromFortran(MPI_Fint index, Handle null) {
    std::lock_guard lock(mutex_);
    if (index < 0 || static_cast<size_t>(index) >= handles_.size() || handles_[static_cast<size_t>(index)] == nullptr) {
      return null;
    }
    return static_cast<Handle>(const_cast<void*>(handles_[static_cast<size_t>(index)]));
  }

 private:
  HandleKind kind_;
  std::mutex mutex_;
  std::vector<const void*> handles_;
  std::unordered_map<const void*, int> indices_;
};

// Tables live for the whole process (never destroyed: conversions may run from atexit).
HandleTable& comms() {
  static auto* table = new HandleTable(HandleKind::Comm, {{0, MPI_COMM_WORLD}, {1, MPI_COMM_SELF}, {2, MPI_COMM_NULL}});
  return *table;
}

HandleTable& groups() {
  static auto* table = new HandleTable(HandleKind::Group, {{0, MPI_GROUP_NULL}, {1, MPI_GROUP_EMPTY}});
  return *table;
}

HandleTable& datatypes() {
  static auto* table = new HandleTable(HandleKind::Datatype, {{0, MPI_DATATYPE_NULL},
                                                              {1, MPI_BYTE},
                                                              {2, MPI_PACKED},
                                                              {3, &ompi_mpi_ub.object},
                                                              {4, &ompi_mpi_lb.object},
                                                              {5, MPI_CHARACTER},
                                                              {6, MPI_LOGICAL},
                                                              {7, MPI_INTEGER},
                                                              {8, MPI_INTEGER1},
                                                              {9, MPI_INTEGER2},
                                                              {10, MPI_INTEGER4},
                                                              {11, MPI_INTEGER8},
                                                              {12, &ompi_mpi_integer16.object},
                                                              {13, MPI_REAL},
                                                              {14, MPI_REAL4},
                                                              {15, MPI_REAL8},
                                                              {16, MPI_REAL16},
                                                              {17, MPI_DOUBLE_PRECISION},
                                                              {18, MPI_COMPLEX},
                                                              {19, MPI_COMPLEX8},
                                                              {20, MPI_COMPLEX16},
                                                              {21, MPI_COMPLEX32},
                                                              {22, MPI_DOUBLE_COMPLEX},
                                                              {23, MPI_2REAL},
                                                              {24, MPI_2DOUBLE_PRECISION},
                                                              {25, MPI_2INTEGER},
                                                              {26, MPI_2COMPLEX},
                                                              {27, MPI_2DOUBLE_COMPLEX},
                                                              {28, &ompi_mpi_real2.object},
                                                              {29, MPI_LOGICAL1},
                                                              {30, MPI_LOGICAL2},
                                                              {31, MPI_LOGICAL4},
                                                              {32, MPI_LOGICAL8},
                                                              {33, MPI_WCHAR},
                                                              {34, MPI_CHAR},
                                                              {35, MPI_UNSIGNED_CHAR},
                                                              {36, MPI_SIGNED_CHAR},
                                                              {37, MPI_SHORT},
                                                              {38, MPI_UNSIGNED_SHORT},
                                                              {39, MPI_INT},
                                                              {40, MPI_UNSIGNED},
                                                              {41, MPI_LONG},
                                                              {42, MPI_UNSIGNED_LONG},
                                                              {43, MPI_LONG_LONG_INT},
                                                              {44, MPI_UNSIGNED_LONG_LONG},
                                                              {45, MPI_FLOAT},
                                                              {46, MPI_DOUBLE},
                                                              {47, MPI_LONG_DOUBLE},
                                                              {48, MPI_FLOAT_INT},
                                                              {49, MPI_DOUBLE_INT},
                                                              {50, MPI_LONG_DOUBLE_INT},
                                                              {51, MPI_LONG_INT},
                                                              {52, MPI_2INT},
                                                              {53, MPI_SHORT_INT},
                                                              {54, MPI_CXX_BOOL},
                                                              {55, MPI_CXX_FLOAT_COMPLEX},
                                                              {56, MPI_CXX_DOUBLE_COMPLEX},
                                                              {57, MPI_CXX_LONG_DOUBLE_COMPLEX},
                                                              {58, MPI_INT8_T},
                                                              {59, MPI_UINT8_T},
                                                              {60, MPI_INT16_T},
                                                              {61, MPI_UINT16_T},
                                                              {62, MPI_INT32_T},
                                                              {63, MPI_UINT32_T},
                                                              {64, MPI_INT64_T},
                                                              {65, MPI_UINT64_T},
                                                              {66, MPI_AINT},
                                                              {67, MPI_OFFSET},
                                                              {68, MPI_C_BOOL},
                                                              {69, MPI_C_FLOAT_COMPLEX},
                                                              {70, MPI_C_DOUBLE_COMPLEX},
                                                              {71, MPI_C_LONG_DOUBLE_COMPLEX},
                                                              {72, MPI_COUNT}});
  return *table;
}

HandleTable& ops() {
  static auto* table = new HandleTable(HandleKind::Op, {{0, MPI_OP_NULL},
                                                        {1, MPI_MAX},
                                                        {2, MPI_MIN},
                                                        {3, MPI_SUM},
                                                        {4, MPI_PROD},
                                                        {5, MPI_LAND},
                                                        {6, MPI_BAND},
                                                        {7, MPI_LOR},
                                                        {8, MPI_BOR},
                                                        {9, MPI_LXOR},
                                                        {10, MPI_BXOR},
                                                        {11, MPI_MAXLOC},
                                                        {12, MPI_MINLOC},
                                                        {13, MPI_REPLACE},
                                                        {14, MPI_NO_OP}});
  return *table;
}

HandleTable& requests() {
  static auto* table = new HandleTable(HandleKind::Request, {{0, MPI_REQUEST_NULL}});
  return *table;
}

HandleTable& messages() {
  static auto* table = new HandleTable(HandleKind::Message, {{0, MPI_MESSAGE_NULL}, {1, MPI_MESSAGE_NO_PROC}});
  return *table;
}

HandleTable& errhandlers() {
  static auto* table = new HandleTable(HandleKind::Errhandler,
                                       {{0, MPI_ERRHANDLER_NULL}, {1, MPI_ERRORS_ARE_FATAL}, {2, MPI_ERRORS_RETURN}});
  return *table;
}

HandleTable& infos() {
  static auto* table = new HandleTable(HandleKind::Info, {{0, MPI_INFO_NULL}, {1, MPI_INFO_ENV}});
  return *table;
}

HandleTable& wins() {
  static auto* table = new HandleTable(HandleKind::Win, {{0, MPI_WIN_NULL}});
  return *table;
}

HandleTable& files() {
  static auto* table = new HandleTable(HandleKind::File, {{0, MPI_FILE_NULL}});
  return *table;
}

// A Fortran status is the C struct's ints, in order (Open MPI's MPI_STATUS_SIZE is 6).
constexpr int kStatusInts = sizeof(MPI_Status) / sizeof(int);
static_assert(sizeof(MPI_Status) % sizeof(int) == 0);

}  // namespace

#define ZMPI_HANDLE_CONVERSION(Name, Handle, table, nullHandle)                                       \
  MPI_Fint PMPI_##Name##_c2f(Handle handle) { return table().toFortran(handle); }                     \
  ZMPI_ALIAS(MPI_##Name##_c2f)                                                                        \
  Handle PMPI_##Name##_f2c(MPI_Fint index) { return table().fromFortran<Handle>(index, nullHandle); } \
  ZMPI_ALIAS(MPI_##Name##_f2c)

extern "C" {

ZMPI_HANDLE_CONVERSION(Comm, MPI_Comm, comms, MPI_COMM_NULL)
ZMPI_HANDLE_CONVERSION(Group, MPI_Group, groups, MPI_GROUP_NULL)
ZMPI_HANDLE_CONVERSION(Type, MPI_Datatype, datatypes, MPI_DATATYPE_NULL)
ZMPI_HANDLE_CONVERSION(Op, MPI_Op, ops, MPI_OP_NULL)
ZMPI_HANDLE_CONVERSION(Request, MPI_Request, requests, MPI_REQUEST_NULL)
ZMPI_HANDLE_CONVERSION(Message, MPI_Message, messages, MPI_MESSAGE_NULL)
ZMPI_HANDLE_CONVERSION(Errhandler, MPI_Errhandler, errhandlers, MPI_ERRHANDLER_NULL)
ZMPI_HANDLE_CONVERSION(Info, MPI_Info, infos, MPI_INFO_NULL)
ZMPI_HANDLE_CONVERSION(Win, MPI_Win, wins, MPI_WIN_NULL)
ZMPI_HANDLE_CONVERSION(File, MPI_File, files, MPI_FILE_NULL)

int PMPI_Status_c2f(const MPI_Status* cStatus, MPI_Fint* fStatus) {
  return guarded("MPI_Status_c2f", [&] {
    if (cStatus == MPI_STATUS_IGNORE || cStatus == MPI_STATUSES_IGNORE) {
      fail(MPI_ERR_IN_STATUS, "c_status is MPI_STATUS_IGNORE");
    }
    if (fStatus == nullptr || fStatus == MPI_F_STATUS_IGNORE) fail(MPI_ERR_IN_STATUS, "f_status is a null pointer");
    const int* ints = reinterpret_cast<const int*>(cStatus);
    for (int i = 0; i < kStatusInts; ++i) fStatus[i] = ints[i];
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Status_c2f)

int PMPI_Status_f2c(const MPI_Fint* fStatus, MPI_Status* cStatus) {
  return guarded("MPI_Status_f2c", [&] {
    if (fStatus == nullptr || fStatus == MPI_F_STATUS_IGNORE) fail(MPI_ERR_IN_STATUS, "f_status is a null pointer");
    if (cStatus == MPI_STATUS_IGNORE) fail(MPI_ERR_IN_STATUS, "c_status is MPI_STATUS_IGNORE");
    int* ints = reinterpret_cast<int*>(cStatus);
    for (int i = 0; i < kStatusInts; ++i) ints[i] = fStatus[i];
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Status_f2c)

}  // extern "C"
