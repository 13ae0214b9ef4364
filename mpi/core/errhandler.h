#pragma once
// Error handlers: what happens when a call fails. MPI_ERRORS_ARE_FATAL (the default on
// communicators) prints what failed and aborts the job; MPI_ERRORS_RETURN returns the
// code; user handlers are called with the handle and the code.
#include <mpi.h>

#include <atomic>
#include <string>

#include "mpi/core/handle.h"

namespace zmpi::mpi {

class Errhandler {
 public:
  enum class Kind { Fatal, Return, Comm, Win, File };
  Errhandler(Kind kind, void (*function)(), bool predefined);
  ~Errhandler();

  Errhandler(const Errhandler&) = delete;
  Errhandler& operator=(const Errhandler&) = delete;

  Kind kind() const { return kind_; }
  MPI_Errhandler handle() { return publicHandle_; }
  void setPublicHandle(MPI_Errhandler handle) { publicHandle_ = handle; }
  bool predefined() const { return predefined_; }

  // The predefined handlers (process-wide; MPI_Init binds their public handles).
  // A user handler lives while the program's handles (created, or returned by a
  // *_get_errhandler) and the objects it is attached to refer to it (MPI-3.1 8.3.4:
  // MPI_Errhandler_free only marks it for deletion). Predefined handlers never go away.
  void retain();
  void release();

  static Errhandler* fatal();
  static Errhandler* returning();

  MPI_Comm_errhandler_function* commFunction() const {
    return reinterpret_cast<MPI_Comm_errhandler_function*>(function_);
  }
  MPI_Win_errhandler_function* winFunction() const { return reinterpret_cast<MPI_Win_errhandler_function*>(function_); }
  MPI_File_errhandler_function* fileFunction() const {
    return reinterpret_cast<MPI_File_errhandler_function*>(function_);
  }

 private:
  ompi_errhandler_t handle_;
  MPI_Errhandler publicHandle_ = &handle_;
  Kind kind_;
  void (*function_)();
  bool predefined_;
  std::atomic<int> references_{1};  // the creator's handle
};

// What a communicator, window or file holds: one counted reference to its handler.
class ErrhandlerRef {
 public:
  explicit ErrhandlerRef(Errhandler* handler) : handler_(handler) { handler_->retain(); }
  ErrhandlerRef(const ErrhandlerRef& other) : ErrhandlerRef(other.handler_) {}
  // cppcheck-suppress operatorEqVarError ; reset() assigns handler_
  ErrhandlerRef& operator=(const ErrhandlerRef& other) {
    if (this != &other) reset(other.handler_);
    return *this;
  }
  ~ErrhandlerRef() { handler_->release(); }

  void reset(Errhandler* handler) {
    handler->retain();
    handler_->release();
    handler_ = handler;
  }
  Errhandler* get() const { return handler_; }
  Errhandler* operator->() const { return handler_; }

 private:
  Errhandler* handler_;
};

Errhandler* errhandlerOf(MPI_Errhandler handle);  // throws MPI_ERR_ARG for invalid handles

}  // namespace zmpi::mpi
