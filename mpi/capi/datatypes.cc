// Datatype entry points: the derived-type constructors, commit/free/dup, size and extent
// queries, names, and envelope/contents. The type maps are built in mpi/datatype/.
#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"
#include "mpi/core/keyval.h"
#include "mpi/datatype/constructors.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

// Removed in MPI-3.0, so mpi.h declares them only for Open MPI's own build; Open MPI's
// library still exports them, so zmpi does too (default visibility, as OMPI_DECLSPEC gives).
extern "C" {
#define ZMPI_EXPORT __attribute__((visibility("default")))
ZMPI_EXPORT int PMPI_Type_extent(MPI_Datatype type, MPI_Aint* extent);
ZMPI_EXPORT int PMPI_Type_lb(MPI_Datatype type, MPI_Aint* lb);
ZMPI_EXPORT int PMPI_Type_ub(MPI_Datatype type, MPI_Aint* ub);
ZMPI_EXPORT int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                  MPI_Datatype* newtype);
ZMPI_EXPORT int PMPI_Type_hindexed(int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype* newtype);
ZMPI_EXPORT int PMPI_Type_struct(int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype types[],
                                 MPI_Datatype* newtype);
#undef ZMPI_EXPORT
}

namespace {

Datatype& anyTypeArg(MPI_Datatype type, const char* name = "datatype") {
  if (type == MPI_DATATYPE_NULL) fail(MPI_ERR_TYPE, std::string(name) + " is MPI_DATATYPE_NULL");
  return *datatypeOf(type);
}

// Runs a constructor and hands its new type out through `out`.
template <typename Make>
int construct(const char* call, MPI_Datatype* out, Make&& make) {
  return guarded(call, [&] {
    pointerArg(out, "newtype");
    Datatype* type = make();
    *out = type->handle();
    return MPI_SUCCESS;
  });
}

template <typename Out>
void storeMaybeUndefined(Out* out, MPI_Count value) {
  *out = value > static_cast<MPI_Count>(INT_MAX) || value < static_cast<MPI_Count>(INT_MIN)
             ? static_cast<Out>(MPI_UNDEFINED)
             : static_cast<Out>(value);
}

}  // namespace

extern "C" {

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return construct("MPI_Type_contiguous", newtype,
                   [&] { return types::contiguous(count, anyTypeArg(oldtype, "oldtype")); });
}
ZMPI_ALIAS(MPI_Type_contiguous)

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return construct("MPI_Type_vector", newtype,
                   [&] { return types::vector(count, blocklength, stride, anyTypeArg(oldtype, "oldtype")); });
}
ZMPI_ALIAS(MPI_Type_vector)

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return construct("MPI_Type_create_hvector", newtype,
                   [&] { return types::hvector(count, blocklength, stride, anyTypeArg(oldtype, "oldtype")); });
}
ZMPI_ALIAS(MPI_Type_create_hvector)

int PMPI_Type_indexed(int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  return construct("MPI_Type_indexed", newtype,
                   [&] { return types::indexed(count, blocklengths, displacements, anyTypeArg(oldtype, "oldtype")); });
}
ZMPI_ALIAS(MPI_Type_indexed)

int PMPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[], MPI_Datatype oldtype,
                              MPI_Datatype* newtype) {
  return construct("MPI_Type_create_hindexed", newtype,
                   [&] { return types::hindexed(count, blocklengths, displacements, anyTypeArg(oldtype, "oldtype")); });
}
ZMPI_ALIAS(MPI_Type_create_hindexed)

int PMPI_Type_create_indexed_block(int count, int blocklength, const int displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) {
  return construct("MPI_Type_create_indexed_block", newtype, [&] {
    return types::indexedBlock(count, blocklength, displacements, anyTypeArg(oldtype, "oldtype"));
  });
}
ZMPI_ALIAS(MPI_Type_create_indexed_block)

int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype* newtype) {
  return construct("MPI_Type_create_hindexed_block", newtype, [&] {
    return types::hindexedBlock(count, blocklength, displacements, anyTypeArg(oldtype, "oldtype"));
  });
}
ZMPI_ALIAS(MPI_Type_create_hindexed_block)

int PMPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                            const MPI_Datatype typelist[], MPI_Datatype* newtype) {
  return construct("MPI_Type_create_struct", newtype, [&] {
    countArg(count);
    if (count > 0) pointerArg(typelist, "types");
    std::vector<Datatype*> inner(static_cast<std::size_t>(std::max(count, 0)));
    for (int i = 0; i < count; ++i) {
      const std::string name = "types[" + std::to_string(i) + "]";
      inner[i] = &anyTypeArg(typelist[i], name.c_str());
    }
    return types::structType(count, blocklengths, displacements, inner.data());
  });
}
ZMPI_ALIAS(MPI_Type_create_struct)

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  return construct("MPI_Type_create_resized", newtype,
                   [&] { return types::resized(anyTypeArg(oldtype, "oldtype"), lb, extent); });
}
ZMPI_ALIAS(MPI_Type_create_resized)

int PMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                              MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return construct("MPI_Type_create_subarray", newtype, [&] {
    return types::subarray(ndims, sizes, subsizes, starts, order, anyTypeArg(oldtype, "oldtype"));
  });
}
ZMPI_ALIAS(MPI_Type_create_subarray)

int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                            const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return construct("MPI_Type_create_darray", newtype, [&] {
    return types::darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, anyTypeArg(oldtype, "oldtype"));
  });
}
ZMPI_ALIAS(MPI_Type_create_darray)

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return construct("MPI_Type_dup", newtype, [&] {
    Datatype* type = types::dup(anyTypeArg(oldtype, "oldtype"));
    try {
      copyTypeAttributesOnDup(oldtype, type->handle());
    } catch (...) {
      deleteAllTypeAttributes(type->handle());
      type->release();
      throw;
    }
    return type;
  });
}
ZMPI_ALIAS(MPI_Type_dup)

int PMPI_Type_commit(MPI_Datatype* type) {
  return guarded("MPI_Type_commit", [&] {
    pointerArg(type, "datatype");
    anyTypeArg(*type).markCommitted();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_commit)

// The type itself lives on while a pending operation or a type built from it holds it.
int PMPI_Type_free(MPI_Datatype* type) {
  return guarded("MPI_Type_free", [&] {
    pointerArg(type, "datatype");
    Datatype& t = anyTypeArg(*type);
    if (t.predefined()) fail(MPI_ERR_TYPE, "cannot free the predefined datatype " + t.name);
    deleteAllTypeAttributes(*type);
    t.release();
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_free)

int PMPI_Type_size(MPI_Datatype type, int* size) {
  return guarded("MPI_Type_size", [&] {
    pointerArg(size, "size");
    storeMaybeUndefined(size, static_cast<MPI_Count>(anyTypeArg(type).size()));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_size)

int PMPI_Type_size_x(MPI_Datatype type, MPI_Count* size) {
  return guarded("MPI_Type_size_x", [&] {
    pointerArg(size, "size");
    *size = static_cast<MPI_Count>(anyTypeArg(type).size());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_size_x)

int PMPI_Type_get_extent(MPI_Datatype type, MPI_Aint* lb, MPI_Aint* extent) {
  return guarded("MPI_Type_get_extent", [&] {
    pointerArg(lb, "lb");
    pointerArg(extent, "extent");
    const Datatype& t = anyTypeArg(type);
    *lb = t.lb();
    *extent = t.extent();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_get_extent)

int PMPI_Type_get_extent_x(MPI_Datatype type, MPI_Count* lb, MPI_Count* extent) {
  return guarded("MPI_Type_get_extent_x", [&] {
    pointerArg(lb, "lb");
    pointerArg(extent, "extent");
    const Datatype& t = anyTypeArg(type);
    *lb = t.lb();
    *extent = t.extent();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_get_extent_x)

int PMPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint* lb, MPI_Aint* extent) {
  return guarded("MPI_Type_get_true_extent", [&] {
    pointerArg(lb, "true_lb");
    pointerArg(extent, "true_extent");
    const Datatype& t = anyTypeArg(type);
    *lb = t.trueLb();
    *extent = t.trueExtent();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_get_true_extent)

int PMPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count* lb, MPI_Count* extent) {
  return guarded("MPI_Type_get_true_extent_x", [&] {
    pointerArg(lb, "true_lb");
    pointerArg(extent, "true_extent");
    const Datatype& t = anyTypeArg(type);
    *lb = t.trueLb();
    *extent = t.trueExtent();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_get_true_extent_x)

int PMPI_Type_set_name(MPI_Datatype type, const char* name) {
  return guarded("MPI_Type_set_name", [&] {
    pointerArg(name, "type_name");
    Datatype& t = anyTypeArg(type);
    t.name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_set_name)

int PMPI_Type_get_name(MPI_Datatype type, char* name, int* resultlen) {
  return guarded("MPI_Type_get_name", [&] {
    pointerArg(name, "type_name");
    pointerArg(resultlen, "resultlen");
    const std::string& text = anyTypeArg(type).name;
    const std::size_t n = std::min<std::size_t>(text.size(), MPI_MAX_OBJECT_NAME - 1);
    std::memcpy(name, text.data(), n);
    name[n] = '\0';
    *resultlen = static_cast<int>(n);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_get_name)

int PMPI_Type_get_envelope(MPI_Datatype type, int* num_integers, int* num_addresses, int* num_datatypes,
                           int* combiner) {
  return guarded("MPI_Type_get_envelope", [&] {
    for (auto [p, name] : {std::pair{num_integers, "num_integers"},
                           {num_addresses, "num_addresses"},
                           {num_datatypes, "num_datatypes"},
                           {combiner, "combiner"}}) {
      pointerArg(p, name);
    }
    const Datatype& t = anyTypeArg(type);
    *num_integers = static_cast<int>(t.contentInts.size());
    *num_addresses = static_cast<int>(t.contentAddresses.size());
    *num_datatypes = static_cast<int>(t.contentTypes.size());
    *combiner = t.combiner;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_get_envelope)

// Returned derived types are new references the program frees with MPI_Type_free.
int PMPI_Type_get_contents(MPI_Datatype type, int max_integers, int max_addresses, int max_datatypes, int integers[],
                           MPI_Aint addresses[], MPI_Datatype datatypes[]) {
  return guarded("MPI_Type_get_contents", [&] {
    const Datatype& t = anyTypeArg(type);
    if (t.combiner == MPI_COMBINER_NAMED) fail(MPI_ERR_TYPE, "cannot get the contents of the named datatype " + t.name);
    auto fits = [](std::size_t needed, int max, const char* name) {
      if (static_cast<std::size_t>(std::max(max, 0)) < needed) {
        fail(MPI_ERR_ARG, std::string(name) + " " + std::to_string(max) + " is less than the " +
                              std::to_string(needed) + " the envelope reports");
      }
    };
    fits(t.contentInts.size(), max_integers, "max_integers");
    fits(t.contentAddresses.size(), max_addresses, "max_addresses");
    fits(t.contentTypes.size(), max_datatypes, "max_datatypes");
    if (!t.contentInts.empty()) pointerArg(integers, "array_of_integers");
    if (!t.contentAddresses.empty()) pointerArg(addresses, "array_of_addresses");
    if (!t.contentTypes.empty()) pointerArg(datatypes, "array_of_datatypes");
    std::copy(t.contentInts.begin(), t.contentInts.end(), integers);
    std::copy(t.contentAddresses.begin(), t.contentAddresses.end(), addresses);
    for (std::size_t i = 0; i < t.contentTypes.size(); ++i) {
      Datatype* inner = datatypeOf(t.contentTypes[i]);
      if (!inner->predefined()) inner->retain();
      datatypes[i] = t.contentTypes[i];
    }
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_get_contents)

// The Fortran kinds of a size, as Open MPI answers.
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype* type) {
  return guarded("MPI_Type_match_size", [&] {
    pointerArg(type, "datatype");
    const std::vector<MPI_Datatype> candidates =
        typeclass == MPI_TYPECLASS_INTEGER   ? std::vector{MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8}
        : typeclass == MPI_TYPECLASS_REAL    ? std::vector{MPI_REAL4, MPI_REAL8, MPI_REAL16}
        : typeclass == MPI_TYPECLASS_COMPLEX ? std::vector{MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32}
                                             : std::vector<MPI_Datatype>{};
    if (candidates.empty()) fail(MPI_ERR_ARG, "typeclass " + std::to_string(typeclass) + " is not an MPI_TYPECLASS_*");
    for (MPI_Datatype candidate : candidates) {
      if (static_cast<int>(datatypeOf(candidate)->size()) == size) {
        *type = candidate;
        return MPI_SUCCESS;
      }
    }
    fail(MPI_ERR_ARG, "no type of typeclass " + std::to_string(typeclass) + " has size " + std::to_string(size));
  });
}
ZMPI_ALIAS(MPI_Type_match_size)

// --- MPI-1 forms, removed in MPI-3.0 ---

int PMPI_Type_extent(MPI_Datatype type, MPI_Aint* extent) {
  return guarded("MPI_Type_extent", [&] {
    pointerArg(extent, "extent");
    *extent = anyTypeArg(type).extent();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_extent)

int PMPI_Type_lb(MPI_Datatype type, MPI_Aint* lb) {
  return guarded("MPI_Type_lb", [&] {
    pointerArg(lb, "lb");
    *lb = anyTypeArg(type).lb();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_lb)

int PMPI_Type_ub(MPI_Datatype type, MPI_Aint* ub) {
  return guarded("MPI_Type_ub", [&] {
    pointerArg(ub, "ub");
    const Datatype& t = anyTypeArg(type);
    *ub = t.lb() + t.extent();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Type_ub)

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}
ZMPI_ALIAS(MPI_Type_hvector)

int PMPI_Type_hindexed(int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype oldtype,
                       MPI_Datatype* newtype) {
  return PMPI_Type_create_hindexed(count, blocklengths, displacements, oldtype, newtype);
}
ZMPI_ALIAS(MPI_Type_hindexed)

int PMPI_Type_struct(int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype types[],
                     MPI_Datatype* newtype) {
  return PMPI_Type_create_struct(count, blocklengths, displacements, types, newtype);
}
ZMPI_ALIAS(MPI_Type_struct)

}  // extern "C"
