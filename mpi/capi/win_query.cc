// What a program can ask a window or attach to it: attributes (MPI_WIN_BASE, _SIZE,
// _DISP_UNIT, _CREATE_FLAVOR, _MODEL and its own keyvals), group, name, info.
#include <cstring>

#include "mpi/capi/validate.h"
#include "mpi/capi/win_entry.h"
#include "mpi/core/info.h"
#include "mpi/core/keyval.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

extern "C" {

int PMPI_Win_get_attr(MPI_Win win, int keyval, void* attributeVal, int* flag) {
  return guardedWin("MPI_Win_get_attr", win, [&] {
    winArg(win);
    pointerArg(attributeVal, "attribute_val");
    pointerArg(flag, "flag");
    void* value = nullptr;
    *flag = getWinAttribute(win, keyval, &value) ? 1 : 0;
    if (*flag) *static_cast<void**>(attributeVal) = value;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_get_attr)

int PMPI_Win_set_attr(MPI_Win win, int keyval, void* attributeVal) {
  return guardedWin("MPI_Win_set_attr", win, [&] {
    winArg(win);
    setWinAttribute(win, keyval, attributeVal);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_set_attr)

int PMPI_Win_delete_attr(MPI_Win win, int keyval) {
  return guardedWin("MPI_Win_delete_attr", win, [&] {
    winArg(win);
    deleteWinAttribute(win, keyval);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_delete_attr)

int PMPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  return guardedWin("MPI_Win_get_group", win, [&] {
    rma::Window& w = winArg(win);
    pointerArg(group, "group");
    w.comm().group().retain();  // released by MPI_Group_free
    *group = w.comm().group().handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_get_group)

int PMPI_Win_set_name(MPI_Win win, const char* name) {
  return guardedWin("MPI_Win_set_name", win, [&] {
    rma::Window& w = winArg(win);
    pointerArg(name, "win_name");
    w.name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_set_name)

int PMPI_Win_get_name(MPI_Win win, char* name, int* resultlen) {
  return guardedWin("MPI_Win_get_name", win, [&] {
    rma::Window& w = winArg(win);
    pointerArg(name, "win_name");
    pointerArg(resultlen, "resultlen");
    std::memcpy(name, w.name.c_str(), w.name.size() + 1);
    *resultlen = static_cast<int>(w.name.size());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_get_name)

// No window hints are acted on, so none are reported as in use (MPI 3.1 section 11.2.7).
int PMPI_Win_set_info(MPI_Win win, MPI_Info info) {
  return guardedWin("MPI_Win_set_info", win, [&] {
    winArg(win);
    infoOf(info);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_set_info)

int PMPI_Win_get_info(MPI_Win win, MPI_Info* info) {
  return guardedWin("MPI_Win_get_info", win, [&] {
    winArg(win);
    pointerArg(info, "info_used");
    *info = (new Info())->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Win_get_info)

}  // extern "C"
