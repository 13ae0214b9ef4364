// Attribute caching entry points: keyvals and attributes on communicators and datatypes,
// window keyvals, the MPI-1 names (MPI_Keyval_create, MPI_Attr_*), and the predefined
// copy/delete callbacks (MPI_COMM_DUP_FN, ...) that mpi.h maps to OMPI_C_MPI_* symbols.
// The store itself: core/keyval.h.
#include <climits>

#include "mpi/capi/entry.h"
#include "mpi/capi/error_strings.h"
#include "mpi/capi/validate.h"
#include "mpi/core/keyval.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

// core/keyval.cc reports INT_MAX as MPI_TAG_UB (it cannot see capi's constant).
static_assert(kTagUpperBound == INT_MAX, "MPI_TAG_UB and the tag check must agree");

namespace {

template <typename Function>
void (*erased(Function* function))() {
  return reinterpret_cast<void (*)()>(function);
}

int createKeyvalEntry(const char* call, AttributeKind kind, void (*copy)(), void (*del)(), int* keyval,
                      void* extraState) {
  return guarded(call, [&] {
    pointerArg(keyval, "keyval");
    *keyval = createKeyval(kind, copy, del, extraState);
    return MPI_SUCCESS;
  });
}

int freeKeyvalEntry(const char* call, AttributeKind kind, int* keyval) {
  return guarded(call, [&] {
    pointerArg(keyval, "keyval");
    freeKeyval(kind, *keyval);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
  });
}

int setCommAttr(const char* call, MPI_Comm comm, int keyval, void* value) {
  return guardedComm(call, comm, [&] {
    setCommAttribute(commArg(comm), keyval, value);
    return MPI_SUCCESS;
  });
}

// `attributeVal` is really a void**: the value stored, which for the predefined
// attributes is a pointer to an int.
int getCommAttr(const char* call, MPI_Comm comm, int keyval, void* attributeVal, int* flag) {
  return guardedComm(call, comm, [&] {
    Communicator& c = commArg(comm);
    pointerArg(attributeVal, "attribute_val");
    pointerArg(flag, "flag");
    void* value = nullptr;
    *flag = getCommAttribute(c, keyval, &value);
    if (*flag && keyval == MPI_LASTUSEDCODE) value = const_cast<int*>(internedInt(lastUsedErrorCode()));
    if (*flag) *static_cast<void**>(attributeVal) = value;
    return MPI_SUCCESS;
  });
}

int deleteCommAttr(const char* call, MPI_Comm comm, int keyval) {
  return guardedComm(call, comm, [&] {
    deleteCommAttribute(commArg(comm), keyval);
    return MPI_SUCCESS;
  });
}

MPI_Datatype typeHandleArg(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) fail(MPI_ERR_TYPE, "datatype is MPI_DATATYPE_NULL");
  datatypeOf(type);
  return type;
}

}  // namespace

extern "C" {

// --- communicators ---

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* del, int* keyval,
                            void* extraState) {
  return createKeyvalEntry("MPI_Comm_create_keyval", AttributeKind::Comm, erased(copy), erased(del), keyval,
                           extraState);
}
ZMPI_ALIAS(MPI_Comm_create_keyval)

int PMPI_Comm_free_keyval(int* keyval) { return freeKeyvalEntry("MPI_Comm_free_keyval", AttributeKind::Comm, keyval); }
ZMPI_ALIAS(MPI_Comm_free_keyval)

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void* value) {
  return setCommAttr("MPI_Comm_set_attr", comm, keyval, value);
}
ZMPI_ALIAS(MPI_Comm_set_attr)

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void* value, int* flag) {
  return getCommAttr("MPI_Comm_get_attr", comm, keyval, value, flag);
}
ZMPI_ALIAS(MPI_Comm_get_attr)

int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval) { return deleteCommAttr("MPI_Comm_delete_attr", comm, keyval); }
ZMPI_ALIAS(MPI_Comm_delete_attr)

// --- the MPI-1 names (deprecated, still in Open MPI's library) ---

int PMPI_Keyval_create(MPI_Copy_function* copy, MPI_Delete_function* del, int* keyval, void* extraState) {
  return createKeyvalEntry("MPI_Keyval_create", AttributeKind::Comm, erased(copy), erased(del), keyval, extraState);
}
ZMPI_ALIAS(MPI_Keyval_create)

int PMPI_Keyval_free(int* keyval) { return freeKeyvalEntry("MPI_Keyval_free", AttributeKind::Comm, keyval); }
ZMPI_ALIAS(MPI_Keyval_free)

int PMPI_Attr_put(MPI_Comm comm, int keyval, void* value) { return setCommAttr("MPI_Attr_put", comm, keyval, value); }
ZMPI_ALIAS(MPI_Attr_put)

int PMPI_Attr_get(MPI_Comm comm, int keyval, void* value, int* flag) {
  return getCommAttr("MPI_Attr_get", comm, keyval, value, flag);
}
ZMPI_ALIAS(MPI_Attr_get)

int PMPI_Attr_delete(MPI_Comm comm, int keyval) { return deleteCommAttr("MPI_Attr_delete", comm, keyval); }
ZMPI_ALIAS(MPI_Attr_delete)

// --- datatypes ---

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function* copy, MPI_Type_delete_attr_function* del, int* keyval,
                            void* extraState) {
  return createKeyvalEntry("MPI_Type_create_keyval", AttributeKind::Type, erased(copy), erased(del), keyval,
                           extraState);
}
ZMPI_ALIAS(MPI_Type_create_keyval)

int PMPI_Type_free_keyval(int* keyval) { return freeKeyvalEntry("MPI_Type_free_keyval", AttributeKind::Type, keyval); }
ZMPI_ALIAS(MPI_Type_free_keyval)

int PMPI_Type_set_attr(MPI_Datatype type, int keyval, void* value) {
  return guarded("MPI_Type_set_attr", [&] {
    setTypeAttribute(typeHandleArg(type), keyval, value);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_set_attr)

int PMPI_Type_get_attr(MPI_Datatype type, int keyval, void* attributeVal, int* flag) {
  return guarded("MPI_Type_get_attr", [&] {
    typeHandleArg(type);
    pointerArg(attributeVal, "attribute_val");
    pointerArg(flag, "flag");
    void* value = nullptr;
    *flag = getTypeAttribute(type, keyval, &value);
    if (*flag) *static_cast<void**>(attributeVal) = value;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_get_attr)

int PMPI_Type_delete_attr(MPI_Datatype type, int keyval) {
  return guarded("MPI_Type_delete_attr", [&] {
    deleteTypeAttribute(typeHandleArg(type), keyval);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_delete_attr)

// --- windows: keyvals only until MPI_Win exists (core/keyval.h has the attribute calls) ---

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function* copy, MPI_Win_delete_attr_function* del, int* keyval,
                           void* extraState) {
  return createKeyvalEntry("MPI_Win_create_keyval", AttributeKind::Win, erased(copy), erased(del), keyval, extraState);
}
ZMPI_ALIAS(MPI_Win_create_keyval)

int PMPI_Win_free_keyval(int* keyval) { return freeKeyvalEntry("MPI_Win_free_keyval", AttributeKind::Win, keyval); }
ZMPI_ALIAS(MPI_Win_free_keyval)

// --- predefined callbacks: MPI_*_NULL_COPY_FN copies nothing, MPI_*_DUP_FN copies the
// value (the pointer itself), MPI_*_NULL_DELETE_FN does nothing ---

#define ZMPI_NULL_COPY_FN(name, Handle)                   \
  int name(Handle, int, void*, void*, void*, int* flag) { \
    *flag = 0;                                            \
    return MPI_SUCCESS;                                   \
  }
#define ZMPI_DUP_FN(name, Handle)                                \
  int name(Handle, int, void*, void* in, void* out, int* flag) { \
    *static_cast<void**>(out) = in;                              \
    *flag = 1;                                                   \
    return MPI_SUCCESS;                                          \
  }
#define ZMPI_NULL_DELETE_FN(name, Handle) \
  int name(Handle, int, void*, void*) { return MPI_SUCCESS; }

ZMPI_NULL_COPY_FN(OMPI_C_MPI_COMM_NULL_COPY_FN, MPI_Comm)
ZMPI_DUP_FN(OMPI_C_MPI_COMM_DUP_FN, MPI_Comm)
ZMPI_NULL_DELETE_FN(OMPI_C_MPI_COMM_NULL_DELETE_FN, MPI_Comm)
ZMPI_NULL_COPY_FN(OMPI_C_MPI_NULL_COPY_FN, MPI_Comm)
ZMPI_DUP_FN(OMPI_C_MPI_DUP_FN, MPI_Comm)
ZMPI_NULL_DELETE_FN(OMPI_C_MPI_NULL_DELETE_FN, MPI_Comm)
ZMPI_NULL_COPY_FN(OMPI_C_MPI_TYPE_NULL_COPY_FN, MPI_Datatype)
ZMPI_DUP_FN(OMPI_C_MPI_TYPE_DUP_FN, MPI_Datatype)
ZMPI_NULL_DELETE_FN(OMPI_C_MPI_TYPE_NULL_DELETE_FN, MPI_Datatype)
ZMPI_NULL_COPY_FN(OMPI_C_MPI_WIN_NULL_COPY_FN, MPI_Win)
ZMPI_DUP_FN(OMPI_C_MPI_WIN_DUP_FN, MPI_Win)
ZMPI_NULL_DELETE_FN(OMPI_C_MPI_WIN_NULL_DELETE_FN, MPI_Win)
#undef ZMPI_NULL_COPY_FN
#undef ZMPI_DUP_FN
#undef ZMPI_NULL_DELETE_FN

}  // extern "C"
