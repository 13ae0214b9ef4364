#pragma once
// Where zmpi's libmpi.so.40 lives, so that ranks load it first (LD_LIBRARY_PATH) even when
// they were linked against Open MPI's library of the same name. zmpirun and zmpid each
// look next to themselves, so an agent uses its own host's installation.
#include <string>

namespace zmpi::runtime {

// zmpi's lib dir, found next to the running program (bin/../lib in the build tree, the
// install's lib dir after `cmake --install`), or $ZMPI_LIBDIR if set. Empty if there is
// no libmpi.so.40 in any of them.
std::string findZmpiLibDir();

}  // namespace zmpi::runtime
