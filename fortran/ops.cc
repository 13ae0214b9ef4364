// MPI_Op_create / MPI_Op_free with a Fortran user function
// (SUBROUTINE F(INVEC, INOUTVEC, LEN, DATATYPE): the datatype as its INTEGER index). The C
// op calls a C function with no context, so each Fortran op takes one of 64 slots, each a C
// function calling its slot's procedure; MPI_Op_free gives the slot back.
#include <mutex>
#include <string>
#include <unordered_map>

#include "fortran/convert.h"
#include "fortran/slots.h"

namespace zf = zmpi::fortran;

namespace {

using FortranUserFunction = void(void* in, void* inout, MPI_Fint* len, MPI_Fint* datatype);
constexpr size_t kOpSlots = 64;

zf::Slots<FortranUserFunction, kOpSlots>& slots() {
  static auto* pool = new zf::Slots<FortranUserFunction, kOpSlots>();
  return *pool;
}

template <size_t I>
struct OpTrampoline {
  static void call(void* in, void* inout, int* len, MPI_Datatype* type) {
    MPI_Fint typeF = zf::toFortran(*type);
    slots().at(I)(in, inout, len, &typeF);
  }
};

constexpr auto kTrampolines = zf::trampolines<OpTrampoline>(std::make_index_sequence<kOpSlots>());

// Which slot each Fortran op (by index) holds.
std::mutex slotOfMutex;
std::unordered_map<MPI_Fint, int>& slotOf() {
  static auto* map = new std::unordered_map<MPI_Fint, int>();
  return *map;
}

}  // namespace

extern "C" {

ZMPI_FORTRAN_EXPORT void ompi_op_create_f(FortranUserFunction* function, MPI_Fint* commute, MPI_Fint* op,
                                          MPI_Fint* ierr) {
  const int slot = slots().take(function);
  if (slot < 0) {
    return zf::raise(ierr, MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Op_create",
                     "more than " + std::to_string(kOpSlots) + " Fortran user ops at once");
  }
  MPI_Op result = MPI_OP_NULL;
  const int rc = PMPI_Op_create(kTrampolines[static_cast<size_t>(slot)], *commute != 0, &result);
  if (rc != MPI_SUCCESS) {
    slots().give(slot);
    return zf::setError(ierr, rc);
  }
  *op = zf::toFortran(result);
  {
    std::lock_guard lock(slotOfMutex);
    slotOf()[*op] = slot;
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_op_create_f)

ZMPI_FORTRAN_EXPORT void ompi_op_free_f(MPI_Fint* op, MPI_Fint* ierr) {
  const MPI_Fint index = *op;
  MPI_Op c = zf::op(index);
  const int rc = PMPI_Op_free(&c);
  if (rc == MPI_SUCCESS) {
    *op = zf::toFortran(c);
    std::lock_guard lock(slotOfMutex);
    if (auto it = slotOf().find(index); it != slotOf().end()) {
      slots().give(it->second);
      slotOf().erase(it);
    }
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_op_free_f)

}  // extern "C"
