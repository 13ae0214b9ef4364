#pragma once
// Errors inside the C++ layers are exceptions carrying an MPI error code (STYLE.md, point
// 4); only the extern "C" entry points turn them into return codes and error-handler calls.
#include <stdexcept>
#include <string>

namespace zmpi::mpi {

class MpiError : public std::runtime_error {
 public:
  MpiError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

[[noreturn]] inline void fail(int code, const std::string& message) { throw MpiError(code, message); }

// Shorthand for argument checks: `require(count >= 0, MPI_ERR_COUNT, "count is negative")`.
inline void require(bool condition, int code, const char* message) {
  if (!condition) fail(code, message);
}

}  // namespace zmpi::mpi
