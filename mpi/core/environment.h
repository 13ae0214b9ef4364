#pragma once
// Reading zmpi's settings from the environment, in one place: a value that is set but is
// not a number is an error naming the variable, never silently 0.
#include <string>

namespace zmpi::mpi {

// The variable's value, or `fallback` when unset.
std::string environmentString(const char* name, const std::string& fallback = "");
// The variable as an integer, or `fallback` when unset or empty; MpiError otherwise.
long long environmentNumber(const char* name, long long fallback);
// `text` (the value of `name`) as an integer; MpiError naming `name` if it is not one.
long long parseNumber(const char* name, const std::string& text);

}  // namespace zmpi::mpi
