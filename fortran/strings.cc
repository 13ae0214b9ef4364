// Bindings whose CHARACTER arguments are results: the C call fills a terminated buffer of
// the MPI maximum, which is then copied into the Fortran variable and padded with blanks
// (a Fortran variable shorter than the text gets its first characters, as with Open MPI).
#include <string>

#include "fortran/convert.h"

namespace zf = zmpi::fortran;

namespace {

// The result text of one call: a buffer of the MPI maximum length plus the terminator.
template <size_t Max>
struct OutText {
  char text[Max + 1] = {};
  int length = 0;
  void store(char* fortran, size_t fortranLength) const { zf::storeString(text, fortran, fortranLength); }
};

bool checkLength(MPI_Fint* ierr, const char* call, const char* argument, size_t length) {
  if (length <= zf::kMaxStringLength) return true;
  zf::badLength(ierr, call, argument, length);
  return false;
}

}  // namespace

extern "C" {

ZMPI_FORTRAN_EXPORT void ompi_get_processor_name_f(char* name, MPI_Fint* resultlen, MPI_Fint* ierr, size_t name_len) {
  if (!checkLength(ierr, "MPI_Get_processor_name", "name", name_len)) return;
  OutText<MPI_MAX_PROCESSOR_NAME> out;
  const int rc = PMPI_Get_processor_name(out.text, &out.length);
  if (rc == MPI_SUCCESS) {
    out.store(name, name_len);
    *resultlen = out.length;
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_get_processor_name_f)

ZMPI_FORTRAN_EXPORT void ompi_get_library_version_f(char* version, MPI_Fint* resultlen, MPI_Fint* ierr,
                                                    size_t version_len) {
  if (!checkLength(ierr, "MPI_Get_library_version", "version", version_len)) return;
  OutText<MPI_MAX_LIBRARY_VERSION_STRING> out;
  const int rc = PMPI_Get_library_version(out.text, &out.length);
  if (rc == MPI_SUCCESS) {
    out.store(version, version_len);
    *resultlen = out.length;
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_get_library_version_f)

ZMPI_FORTRAN_EXPORT void ompi_error_string_f(MPI_Fint* errorcode, char* string, MPI_Fint* resultlen, MPI_Fint* ierr,
                                             size_t string_len) {
  if (!checkLength(ierr, "MPI_Error_string", "string", string_len)) return;
  OutText<MPI_MAX_ERROR_STRING> out;
  const int rc = PMPI_Error_string(*errorcode, out.text, &out.length);
  if (rc == MPI_SUCCESS) {
    out.store(string, string_len);
    *resultlen = out.length;
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_error_string_f)

#define ZMPI_GET_NAME(impl, call, Handle, convert, cfunction)                                                         \
  ZMPI_FORTRAN_EXPORT void impl(MPI_Fint* handle, char* name, MPI_Fint* resultlen, MPI_Fint* ierr, size_t name_len) { \
    if (!checkLength(ierr, call, "name", name_len)) return;                                                           \
    OutText<MPI_MAX_OBJECT_NAME> out;                                                                                 \
    const int rc = cfunction(zf::convert(*handle), out.text, &out.length);                                            \
    if (rc == MPI_SUCCESS) {                                                                                          \
      out.store(name, name_len);                                                                                      \
      *resultlen = out.length;                                                                                        \
    }                                                                                                                 \
    zf::setError(ierr, rc);                                                                                           \
  }

ZMPI_GET_NAME(ompi_comm_get_name_f, "MPI_Comm_get_name", MPI_Comm, comm, PMPI_Comm_get_name)
ZMPI_FORTRAN_ALIASES(ompi_comm_get_name_f)
ZMPI_GET_NAME(ompi_type_get_name_f, "MPI_Type_get_name", MPI_Datatype, type, PMPI_Type_get_name)
ZMPI_FORTRAN_ALIASES(ompi_type_get_name_f)
ZMPI_GET_NAME(ompi_win_get_name_f, "MPI_Win_get_name", MPI_Win, win, PMPI_Win_get_name)
ZMPI_FORTRAN_ALIASES(ompi_win_get_name_f)
#undef ZMPI_GET_NAME

ZMPI_FORTRAN_EXPORT void ompi_info_get_f(MPI_Fint* info, char* key, MPI_Fint* valuelen, char* value, MPI_Fint* flag,
                                         MPI_Fint* ierr, size_t key_len, size_t value_len) {
  const zf::InString keyC(key, key_len);
  if (!keyC.ok()) return zf::badLength(ierr, "MPI_Info_get", "key", key_len);
  if (!checkLength(ierr, "MPI_Info_get", "value", value_len)) return;
  if (*valuelen < 0) {
    return zf::raise(ierr, MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_get", "valuelen is " + std::to_string(*valuelen));
  }
  std::string buffer(static_cast<size_t>(*valuelen) + 1, '\0');
  int found = 0;
  const int rc = PMPI_Info_get(zf::info(*info), keyC.c(), *valuelen, buffer.data(), &found);
  if (rc == MPI_SUCCESS) {
    *flag = zf::logical(found);
    if (found) zf::storeString(buffer.c_str(), value, value_len);
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_info_get_f)

ZMPI_FORTRAN_EXPORT void ompi_info_get_nthkey_f(MPI_Fint* info, MPI_Fint* n, char* key, MPI_Fint* ierr,
                                                size_t key_len) {
  if (!checkLength(ierr, "MPI_Info_get_nthkey", "key", key_len)) return;
  OutText<MPI_MAX_INFO_KEY> out;
  const int rc = PMPI_Info_get_nthkey(zf::info(*info), *n, out.text);
  if (rc == MPI_SUCCESS) out.store(key, key_len);
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_info_get_nthkey_f)

ZMPI_FORTRAN_EXPORT void ompi_file_get_view_f(MPI_Fint* fh, MPI_Offset* disp, MPI_Fint* etype, MPI_Fint* filetype,
                                              char* datarep, MPI_Fint* ierr, size_t datarep_len) {
  if (!checkLength(ierr, "MPI_File_get_view", "datarep", datarep_len)) return;
  OutText<MPI_MAX_DATAREP_STRING> out;
  MPI_Datatype etypeC = MPI_DATATYPE_NULL;
  MPI_Datatype filetypeC = MPI_DATATYPE_NULL;
  const int rc = PMPI_File_get_view(zf::file(*fh), disp, &etypeC, &filetypeC, out.text);
  if (rc == MPI_SUCCESS) {
    *etype = zf::toFortran(etypeC);
    *filetype = zf::toFortran(filetypeC);
    out.store(datarep, datarep_len);
  }
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_file_get_view_f)

ZMPI_FORTRAN_EXPORT void ompi_open_port_f(MPI_Fint* info, char* port_name, MPI_Fint* ierr, size_t port_name_len) {
  if (!checkLength(ierr, "MPI_Open_port", "port_name", port_name_len)) return;
  OutText<MPI_MAX_PORT_NAME> out;
  const int rc = PMPI_Open_port(zf::info(*info), out.text);
  if (rc == MPI_SUCCESS) out.store(port_name, port_name_len);
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_open_port_f)

ZMPI_FORTRAN_EXPORT void ompi_lookup_name_f(char* service_name, MPI_Fint* info, char* port_name, MPI_Fint* ierr,
                                            size_t service_name_len, size_t port_name_len) {
  const zf::InString service(service_name, service_name_len);
  if (!service.ok()) return zf::badLength(ierr, "MPI_Lookup_name", "service_name", service_name_len);
  if (!checkLength(ierr, "MPI_Lookup_name", "port_name", port_name_len)) return;
  OutText<MPI_MAX_PORT_NAME> out;
  const int rc = PMPI_Lookup_name(service.c(), zf::info(*info), out.text);
  if (rc == MPI_SUCCESS) out.store(port_name, port_name_len);
  zf::setError(ierr, rc);
}
ZMPI_FORTRAN_ALIASES(ompi_lookup_name_f)

}  // extern "C"
