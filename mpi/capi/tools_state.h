#pragma once
// The MPI tools interface (MPI-3.1 chapter 14) over zmpi's settings registry
// (transport/settings.h): each setting this library declares is a control variable, the
// engine's counters are performance variables (tools_pvars.cc). This header holds what the
// cvar, pvar and category calls share: the init count, the tables, the string rules.
//
// MPI_T calls return their error code (MPI_T_ERR_*, Open MPI's values) and never invoke an
// error handler, as the standard says.
#include <mpi.h>

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "transport/settings.h"

// The handle types mpi.h declares, opaque to programs (Open MPI's names): an enum and a
// cvar handle name their table entry.
struct mca_base_var_enum_t {
  int index;
};
struct ompi_mpit_cvar_handle_t {
  int index;
};

namespace zmpi::mpi::tools {

// One control variable: a setting, and for a string with choices its enum.
struct Cvar {
  const transport::SettingBase* setting;
  MPI_Datatype datatype;  // MPI_INT (bool, int range, enum), MPI_COUNT (wider ints), MPI_CHAR
  int enumIndex;          // into enums(), or -1
};

// One enum: named after its setting, items (name, value). A choice's value is its index;
// a setting whose default is no choice ("" = chosen by the code) has an item "auto" = -1.
struct Enum {
  std::string name;
  std::vector<std::pair<std::string, int>> items;
};

// The tables are built once, at the first MPI_T_init_thread (every setting is registered
// by then: static initialisation is over).
const std::vector<Cvar>& cvars();
std::vector<Enum>& enums();
MPI_T_enum enumHandle(int index);
// The enum's index, or -1 for a handle that is none of ours.
int enumIndexOf(MPI_T_enum handle);

// MPI_T_init_thread/finalize nest: a count (guarded by toolsMutex()); the other calls
// need it above zero.
std::mutex& toolsMutex();
int& initCount();
bool initialized();  // takes the mutex

// The standard's string out-parameters: with a null buffer or *length 0 nothing is copied
// and *length becomes the whole length plus one; else at most *length - 1 characters are
// copied, terminated, and *length becomes the number copied plus one.
void copyOut(std::string_view text, char* buffer, int* length);

// The verbosity MPI_T shows for a level.
int verbosityOf(transport::Level level);

// The number of performance variables (tools_pvars.cc).
int pvarCount();

// Categories: one per setting level (control variables), one for the engine's counters.
inline constexpr int kCategoryCount = 4;
inline constexpr int kPvarCategory = 3;

}  // namespace zmpi::mpi::tools
