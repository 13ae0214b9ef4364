// Keyvals with Fortran copy and delete procedures (MPI_Comm/Type/Win_create_keyval and
// MPI-1's MPI_Keyval_create). The C callbacks get the keyval's extra_state, so each Fortran
// keyval hands the C library one small record (the Fortran procedures and the program's own
// extra_state) and the C callbacks below call the procedures with Fortran's arguments:
//   COPY(OLDOBJ, KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN, ATTRIBUTE_VAL_OUT, FLAG, IERROR)
//   DELETE(OBJ, KEYVAL, ATTRIBUTE_VAL, EXTRA_STATE, IERROR)
// with INTEGER(KIND=MPI_ADDRESS_KIND) values (MPI-1's: INTEGER). The record lives as long
// as the process: a freed keyval may still be attached to objects.
#include "fortran/convert.h"

namespace zf = zmpi::fortran;

namespace {

template <typename Value>
struct Procedures {
  using Copy = void(MPI_Fint* old, MPI_Fint* keyval, Value* extra, Value* in, Value* out, MPI_Fint* flag,
                    MPI_Fint* ierr);
  using Delete = void(MPI_Fint* obj, MPI_Fint* keyval, Value* value, Value* extra, MPI_Fint* ierr);
};

template <typename Value>
struct Record {
  typename Procedures<Value>::Copy* copy;
  typename Procedures<Value>::Delete* erase;
  Value extra;
};

template <typename Handle, typename Value>
int copyTrampoline(Handle old, int keyval, void* extra, void* in, void* out, int* flag) {
  auto* record = static_cast<Record<Value>*>(extra);
  MPI_Fint oldF = zf::toFortran(old);
  MPI_Fint keyvalF = keyval;
  Value valueIn = static_cast<Value>(reinterpret_cast<MPI_Aint>(in));
  Value valueOut = 0;
  MPI_Fint flagF = 0;
  MPI_Fint ierr = MPI_SUCCESS;
  record->copy(&oldF, &keyvalF, &record->extra, &valueIn, &valueOut, &flagF, &ierr);
  *flag = flagF != 0;
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the Fortran value becomes the C attribute
  if (*flag) *static_cast<void**>(out) = reinterpret_cast<void*>(static_cast<MPI_Aint>(valueOut));
  return ierr;
}

template <typename Handle, typename Value>
int deleteTrampoline(Handle obj, int keyval, void* value, void* extra) {
  auto* record = static_cast<Record<Value>*>(extra);
  MPI_Fint objF = zf::toFortran(obj);
  MPI_Fint keyvalF = keyval;
  Value valueF = static_cast<Value>(reinterpret_cast<MPI_Aint>(value));
  MPI_Fint ierr = MPI_SUCCESS;
  record->erase(&objF, &keyvalF, &valueF, &record->extra, &ierr);
  return ierr;
}

template <typename Handle, typename Value, typename CreateKeyval>
void createKeyval(CreateKeyval create, typename Procedures<Value>::Copy* copy,
                  typename Procedures<Value>::Delete* erase, MPI_Fint* keyval, Value* extra, MPI_Fint* ierr) {
  auto* record = new Record<Value>{copy, erase, *extra};
  int keyvalC = MPI_KEYVAL_INVALID;
  const int rc = create(&copyTrampoline<Handle, Value>, &deleteTrampoline<Handle, Value>, &keyvalC, record);
  if (rc == MPI_SUCCESS) {
    *keyval = keyvalC;
  } else {
    delete record;
  }
  zf::setError(ierr, rc);
}

}  // namespace

extern "C" {

ZMPI_FORTRAN_EXPORT void ompi_comm_create_keyval_f(Procedures<MPI_Aint>::Copy* copy,
                                                   Procedures<MPI_Aint>::Delete* erase, MPI_Fint* keyval,
                                                   MPI_Aint* extra, MPI_Fint* ierr) {
  createKeyval<MPI_Comm, MPI_Aint>(PMPI_Comm_create_keyval, copy, erase, keyval, extra, ierr);
}
ZMPI_FORTRAN_ALIASES(ompi_comm_create_keyval_f)

ZMPI_FORTRAN_EXPORT void ompi_type_create_keyval_f(Procedures<MPI_Aint>::Copy* copy,
                                                   Procedures<MPI_Aint>::Delete* erase, MPI_Fint* keyval,
                                                   MPI_Aint* extra, MPI_Fint* ierr) {
  createKeyval<MPI_Datatype, MPI_Aint>(PMPI_Type_create_keyval, copy, erase, keyval, extra, ierr);
}
ZMPI_FORTRAN_ALIASES(ompi_type_create_keyval_f)

ZMPI_FORTRAN_EXPORT void ompi_win_create_keyval_f(Procedures<MPI_Aint>::Copy* copy, Procedures<MPI_Aint>::Delete* erase,
                                                  MPI_Fint* keyval, MPI_Aint* extra, MPI_Fint* ierr) {
  createKeyval<MPI_Win, MPI_Aint>(PMPI_Win_create_keyval, copy, erase, keyval, extra, ierr);
}
ZMPI_FORTRAN_ALIASES(ompi_win_create_keyval_f)

// MPI-1: INTEGER extra_state and values, communicators only.
ZMPI_FORTRAN_EXPORT void ompi_keyval_create_f(Procedures<MPI_Fint>::Copy* copy, Procedures<MPI_Fint>::Delete* erase,
                                              MPI_Fint* keyval, MPI_Fint* extra, MPI_Fint* ierr) {
  createKeyval<MPI_Comm, MPI_Fint>(PMPI_Comm_create_keyval, copy, erase, keyval, extra, ierr);
}
ZMPI_FORTRAN_ALIASES(ompi_keyval_create_f)

ZMPI_FORTRAN_EXPORT void ompi_keyval_free_f(MPI_Fint* keyval, MPI_Fint* ierr) {
  int keyvalC = *keyval;
  const int rc = PMPI_Comm_free_keyval(&keyvalC);
  if (rc == MPI_SUCCESS) *keyval = keyvalC;
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_keyval_free_f)

}  // extern "C"
