#pragma once
// A datatype as zmpi uses it: a byte size, lower bound and extent, and the type map
// flattened when the type is built (mpi/datatype/type_builder.h; commit only marks it)
// into merged byte blocks, so packing is a loop of memcpys with no per-element dispatch. `primitive` names the single
// basic type all elements are made of (what reduction ops dispatch on), or Mixed for structs of different basic types.
#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mpi/core/handle.h"
#include "mpi/datatype/primitive.h"

namespace zmpi::mpi {

struct TypeBlock {
  std::ptrdiff_t offset;  // from the buffer address, in bytes
  std::size_t length;     // bytes
};

// The type map by basic element: `count` elements of `primitive`, primitiveExtent() apart,
// the first at `offset`. Reductions walk these (a derived type of one basic type reduces
// element-wise) and external32 converts along them; packing uses the byte blocks.
struct PrimitiveRun {
  std::ptrdiff_t offset;
  Primitive primitive;
  std::size_t count;
};

class Datatype {
 public:
  Datatype();
  ~Datatype();
  Datatype(const Datatype&) = delete;
  Datatype& operator=(const Datatype&) = delete;

  // A predefined basic type of `bytes` bytes.
  static Datatype* makeBasic(Primitive primitive, std::size_t bytes, const char* name);

  std::size_t size() const { return size_; }
  std::ptrdiff_t lb() const { return lb_; }
  std::ptrdiff_t extent() const { return ub_ - lb_; }
  std::ptrdiff_t trueLb() const { return trueLb_; }
  std::ptrdiff_t trueExtent() const { return trueUb_ - trueLb_; }
  Primitive primitive() const { return primitive_; }
  // Number of primitive elements in one element of this type (for MPI_Get_elements).
  std::size_t primitiveCount() const { return primitiveCount_; }
  const std::vector<TypeBlock>& blocks() const { return blocks_; }
  // Basic elements in the first `bytes` packed bytes of a message of this type
  // (MPI_Get_elements), counting along the type map; nullopt when the bytes end inside a
  // basic element.
  std::optional<std::size_t> elementsIn(std::size_t bytes) const;
  // Packed bytes of the first `elements` basic elements (MPI_Status_set_elements).
  std::size_t bytesOfElements(std::size_t elements) const;
  // Runs in type-map order, merged where adjacent. For a type of one basic kind built
  // without runs, finalize() derives them from the blocks.
  const std::vector<PrimitiveRun>& runs() const { return runs_; }
  // True when `count` elements are one run of count * runs()[0].count basic elements, so
  // a reduction is a single loop (basic types, contiguous types of them).
  bool denseRun() const { return denseRun_; }
  // Bounds set by MPI_Type_create_resized or the deprecated MPI_LB/MPI_UB markers: they
  // stay the bounds of any type built from this one (MPI 3.1 section 4.1.7).
  bool explicitLb() const { return explicitLb_; }
  bool explicitUb() const { return explicitUb_; }
  // True when `count` elements are exactly `count * size()` bytes from the buffer address,
  // so they can be sent from (and received into) user memory without packing.
  bool contiguous() const { return contiguous_; }
  bool committed() const { return committed_ || predefined_; }
  bool predefined() const { return predefined_; }

  // Packs `count` elements at `base` into `out` (count * size() bytes).
  void pack(const void* base, std::size_t count, void* out) const;
  // Unpacks `bytes` bytes (may end mid-element after a short message) into `base`.
  void unpack(const void* in, std::size_t bytes, void* base) const;

  // The handle users see: &handle_, or the predefined symbol (&ompi_mpi_int, ...).
  MPI_Datatype handle() const { return publicHandle_; }
  void setPublicHandle(MPI_Datatype handle) { publicHandle_ = handle; }
  std::string name;

  // --- construction (used by the type constructors in mpi/datatype/) ---
  // Describes the type map directly: blocks (unmerged, type-map order), bounds, size,
  // primitive. finalize() merges adjacent blocks and computes `contiguous`.
  std::vector<TypeBlock>& mutableBlocks() { return blocks_; }
  void setBounds(std::ptrdiff_t lb, std::ptrdiff_t ub) {
    lb_ = lb;
    ub_ = ub;
  }
  void setTrueBounds(std::ptrdiff_t lb, std::ptrdiff_t ub) {
    trueLb_ = lb;
    trueUb_ = ub;
  }
  void setSize(std::size_t size) { size_ = size; }
  void setPrimitive(Primitive p, std::size_t count) {
    primitive_ = p;
    primitiveCount_ = count;
  }
  // Runs (type-map order, unmerged allowed). When set, finalize() derives primitive() and
  // primitiveCount() from them.
  std::vector<PrimitiveRun>& mutableRuns() { return runs_; }
  void setExplicitBounds(bool lb, bool ub) {
    explicitLb_ = lb;
    explicitUb_ = ub;
  }
  void finalize();
  void markCommitted() { committed_ = true; }
  void markPredefined() { predefined_ = true; }

  // Envelope/contents (MPI_Type_get_envelope/get_contents): what built this type.
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> contentInts;
  std::vector<MPI_Aint> contentAddresses;
  std::vector<MPI_Datatype> contentTypes;
  // Keeps a type named in contentTypes alive as long as this one (MPI_Type_get_contents
  // must work after the program freed the inner type).
  void holdType(Datatype* inner);

  // Reference counting: a derived type stays alive while a pending operation uses it.
  void retain() { refs_.fetch_add(1); }
  void release();
  int references() const { return refs_.load(); }

 private:
  void finalizeRuns();

  ompi_datatype_t handle_;
  MPI_Datatype publicHandle_ = &handle_;
  std::size_t size_ = 0;
  std::ptrdiff_t lb_ = 0, ub_ = 0, trueLb_ = 0, trueUb_ = 0;
  Primitive primitive_ = Primitive::None;
  std::size_t primitiveCount_ = 0;
  std::vector<TypeBlock> blocks_;
  std::vector<PrimitiveRun> runs_;
  std::vector<Datatype*> held_;
  std::size_t uniformLength_ = 0;  // every block's length if they are all equal, else 0
  bool contiguous_ = false;
  bool denseRun_ = false;
  bool explicitLb_ = false;
  bool explicitUb_ = false;
  bool committed_ = false;
  bool predefined_ = false;
  std::atomic<int> refs_{1};
};

[[noreturn, gnu::cold]] void failInvalidDatatype();
[[noreturn, gnu::cold]] void failUncommittedDatatype();

// Looks a handle up; throws MpiError(MPI_ERR_TYPE) for null or invalid handles. Inline, as
// communicatorOf: on every communication call's path.
inline Datatype* datatypeOf(MPI_Datatype handle) {
  if (!isHandleOf(handle, HandleKind::Datatype) || implOf<Datatype>(handle) == nullptr) [[unlikely]]
    failInvalidDatatype();
  return implOf<Datatype>(handle);
}

// As datatypeOf, and also requires the type to be committed (for communication calls).
inline Datatype* committedDatatypeOf(MPI_Datatype handle) {
  Datatype* type = datatypeOf(handle);
  if (!type->committed()) [[unlikely]]
    failUncommittedDatatype();
  return type;
}

}  // namespace zmpi::mpi
