#pragma once
// Error handlers: what happens when a call fails. MPI_ERRORS_ARE_FATAL (the default on
// communicators) prints what failed and aborts the job; MPI_ERRORS_RETURN returns the
// code; user handlers are called with the handle and the code.
#include <string>

#include <mpi.h>

#include "mpi/core/handle.h"

namespace zmpi::mpi {

class Errhandler {
 public:
  enum class Kind { Fatal, Return, Comm, Win, File };
  Errhandler(Kind kind, void (*function)(), bool predefined);
  ~Errhandler();

  Kind kind() const { return kind_; }
  MPI_Errhandler handle() { return publicHandle_; }
  void setPublicHandle(MPI_Errhandler handle) { publicHandle_ = handle; }
  bool predefined() const { return predefined_; }

  // The predefined handlers (process-wide; MPI_Init binds their public handles).
  static Errhandler* fatal();
  static Errhandler* returning();

  MPI_Comm_errhandler_function* commFunction() const { return reinterpret_cast<MPI_Comm_errhandler_function*>(function_); }
  MPI_Win_errhandler_function* winFunction() const { return reinterpret_cast<MPI_Win_errhandler_function*>(function_); }
  MPI_File_errhandler_function* fileFunction() const { return reinterpret_cast<MPI_File_errhandler_function*>(function_); }

 private:
  ompi_errhandler_t handle_;
  MPI_Errhandler publicHandle_ = &handle_;
  Kind kind_;
  void (*function_)();
  bool predefined_;
};

Errhandler* errhandlerOf(MPI_Errhandler handle);  // throws MPI_ERR_ARG for invalid handles

}  // namespace zmpi::mpi
