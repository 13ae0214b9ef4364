// Error handlers written in Fortran (SUBROUTINE HANDLER(OBJ, ERRORCODE), the object as its
// INTEGER index) for communicators, windows and files. The C handler gets no context, so
// each Fortran handler takes one of 32 slots per kind, a C function calling its slot's
// procedure. Slots are not given back: a freed handler may still be attached to objects.
#include <string>

#include "fortran/convert.h"
#include "fortran/slots.h"

namespace zf = zmpi::fortran;

namespace {

using FortranHandler = void(MPI_Fint* object, MPI_Fint* errorcode);
constexpr size_t kHandlerSlots = 32;

template <typename Handle>
zf::Slots<FortranHandler, kHandlerSlots>& slots() {
  static auto* pool = new zf::Slots<FortranHandler, kHandlerSlots>();
  return *pool;
}

template <typename Handle>
struct ForHandle {
  template <size_t I>
  struct Trampoline {
    static void call(Handle* object, int* errorcode, ...) {
      MPI_Fint objectF = zf::toFortran(*object);
      MPI_Fint codeF = *errorcode;
      slots<Handle>().at(I)(&objectF, &codeF);
    }
  };
};

template <typename Handle, typename Create>
void createErrhandler(const char* call, FortranHandler* function, MPI_Fint* errhandler, MPI_Fint* ierr, Create create) {
  static constexpr auto kTrampolines =
      zf::trampolines<ForHandle<Handle>::template Trampoline>(std::make_index_sequence<kHandlerSlots>());
  const int slot = slots<Handle>().take(function);
  if (slot < 0) {
    return zf::raise(ierr, MPI_COMM_WORLD, MPI_ERR_OTHER, call,
                     "more than " + std::to_string(kHandlerSlots) + " Fortran error handlers of one kind");
  }
  MPI_Errhandler result = MPI_ERRHANDLER_NULL;
  const int rc = create(kTrampolines[static_cast<size_t>(slot)], &result);
  if (rc == MPI_SUCCESS) {
    *errhandler = zf::toFortran(result);
  } else {
    slots<Handle>().give(slot);
  }
  zf::setError(ierr, rc);
}

}  // namespace

extern "C" {

ZMPI_FORTRAN_EXPORT void ompi_comm_create_errhandler_f(FortranHandler* function, MPI_Fint* errhandler, MPI_Fint* ierr) {
  createErrhandler<MPI_Comm>("MPI_Comm_create_errhandler", function, errhandler, ierr, PMPI_Comm_create_errhandler);
}
ZMPI_FORTRAN_ALIASES(ompi_comm_create_errhandler_f)

ZMPI_FORTRAN_EXPORT void ompi_win_create_errhandler_f(FortranHandler* function, MPI_Fint* errhandler, MPI_Fint* ierr) {
  createErrhandler<MPI_Win>("MPI_Win_create_errhandler", function, errhandler, ierr, PMPI_Win_create_errhandler);
}
ZMPI_FORTRAN_ALIASES(ompi_win_create_errhandler_f)

ZMPI_FORTRAN_EXPORT void ompi_file_create_errhandler_f(FortranHandler* function, MPI_Fint* errhandler, MPI_Fint* ierr) {
  createErrhandler<MPI_File>("MPI_File_create_errhandler", function, errhandler, ierr, PMPI_File_create_errhandler);
}
ZMPI_FORTRAN_ALIASES(ompi_file_create_errhandler_f)

}  // extern "C"
