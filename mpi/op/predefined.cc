// The predefined reduction ops. Each is a table from basic kind to kernel, filled with the
// types the MPI standard allows it on (MPI 3.1 section 5.9.2), so a call dispatches once on
// the datatype's basic kind and then runs one vectorisable loop per run of elements.
#include "mpi/op/predefined.h"

#include <mpi.h>

#include <array>
#include <cstring>
#include <mutex>

#include "mpi/abi/predefined_objects.h"
#include "mpi/core/error.h"
#include "mpi/op/kernels.h"
#include "mpi/op/op.h"

namespace zmpi::mpi {
namespace {

using P = Primitive;
using kernels::Kernel;

// A kernel for elements in user memory and one for packed elements: they differ only for
// the MAXLOC/MINLOC pairs, whose memory layout has padding.
struct Kernels {
  Kernel memory = nullptr;
  Kernel packed = nullptr;
};
using Table = std::array<Kernels, kPrimitiveKinds>;

template <typename F, Primitive... Kinds>
void add(Table& table) {
  ((table[static_cast<std::size_t>(Kinds)] = {&kernels::elementwise<typename kernels::CType<Kinds>::type, F>,
                                              &kernels::elementwise<typename kernels::CType<Kinds>::type, F>}),
   ...);
}

// "C integer" and "Fortran integer" in the standard's groups; MPI_CHAR and MPI_WCHAR are
// accepted too, as Open MPI does.
template <typename F>
void addIntegers(Table& table) {
  add<F, P::Char, P::SignedChar, P::UnsignedChar, P::Short, P::UnsignedShort, P::Int, P::Unsigned, P::Long,
      P::UnsignedLong, P::LongLong, P::UnsignedLongLong, P::WChar, P::Int8, P::Int16, P::Int32, P::Int64, P::Uint8,
      P::Uint16, P::Uint32, P::Uint64, P::Aint, P::Offset, P::Count, P::Int128>(table);
}

template <typename F>
void addFloating(Table& table) {
  add<F, P::Float, P::Double, P::LongDouble>(table);
}

template <typename F>
void addComplex(Table& table) {
  add<F, P::FloatComplex, P::DoubleComplex, P::LongDoubleComplex>(table);
}

template <typename F>
Table minMax() {
  Table table{};
  addIntegers<F>(table);
  addFloating<F>(table);
  return table;
}

template <typename F>
Table arithmetic() {
  Table table = minMax<F>();
  addComplex<F>(table);
  return table;
}

template <typename F>
Table logical() {
  Table table{};
  addIntegers<F>(table);
  add<F, P::Bool>(table);
  return table;
}

template <typename F>
Table bitwise() {
  Table table{};
  addIntegers<F>(table);
  add<F, P::Byte>(table);
  return table;
}

template <typename V, typename I, bool IsMax>
constexpr Kernels loc() {
  return {&kernels::locMemory<V, I, IsMax>, &kernels::locPacked<V, I, IsMax>};
}

template <bool IsMax>
Table location() {
  Table table{};
  table[static_cast<std::size_t>(P::FloatInt)] = loc<float, int, IsMax>();
  table[static_cast<std::size_t>(P::DoubleInt)] = loc<double, int, IsMax>();
  table[static_cast<std::size_t>(P::LongInt)] = loc<long, int, IsMax>();
  table[static_cast<std::size_t>(P::TwoInt)] = loc<int, int, IsMax>();
  table[static_cast<std::size_t>(P::ShortInt)] = loc<short, int, IsMax>();
  table[static_cast<std::size_t>(P::LongDoubleInt)] = loc<long double, int, IsMax>();
  table[static_cast<std::size_t>(P::TwoFloat)] = loc<float, float, IsMax>();
  table[static_cast<std::size_t>(P::TwoDouble)] = loc<double, double, IsMax>();
  return table;
}

std::string describe(const Datatype& type) {
  if (!type.name.empty()) return type.name;
  if (type.primitive() == P::Mixed) return "a derived datatype mixing basic types";
  return std::string("a derived datatype of ") + primitiveName(type.primitive());
}

class TableOp final : public Op {
 public:
  TableOp(const char* opName, const Table& table) : table_(table) {
    name = opName;
    markPredefined();
  }

  void apply(const void* in, void* inout, std::size_t count, const Datatype& type) const override {
    if (count == 0 || type.size() == 0) return;
    const Kernel kernel = kernelsFor(type).memory;
    const char* a = static_cast<const char*>(in);
    char* b = static_cast<char*>(inout);
    const std::vector<PrimitiveRun>& runs = type.runs();
    if (type.denseRun()) return kernel(a + runs[0].offset, b + runs[0].offset, count * runs[0].count);
    for (std::size_t i = 0; i < count; ++i) {
      const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(i) * type.extent();
      for (const PrimitiveRun& run : runs) kernel(a + base + run.offset, b + base + run.offset, run.count);
    }
  }

  void applyPacked(const void* in, void* inout, std::size_t count, const Datatype& type) const override {
    if (count == 0 || type.size() == 0) return;
    kernelsFor(type).packed(in, inout, count * type.primitiveCount());
  }

  bool commutative() const override { return true; }

  bool knownToAccept(const Datatype& type) const override {
    return table_[static_cast<std::size_t>(type.primitive())].memory != nullptr;
  }

 private:
  const Kernels& kernelsFor(const Datatype& type) const {
    const Kernels& kernels = table_[static_cast<std::size_t>(type.primitive())];
    if (kernels.memory == nullptr) fail(MPI_ERR_OP, name + " is not defined for " + describe(type));
    return kernels;
  }

  Table table_;
};

// MPI_REPLACE (inout = in) and MPI_NO_OP (inout unchanged) apply to every type; they
// exist for MPI_Accumulate and friends.
class ReplaceOp final : public Op {
 public:
  ReplaceOp() {
    name = "MPI_REPLACE";
    markPredefined();
  }
  void apply(const void* in, void* inout, std::size_t count, const Datatype& type) const override {
    const char* a = static_cast<const char*>(in);
    char* b = static_cast<char*>(inout);
    for (std::size_t i = 0; i < count; ++i) {
      const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(i) * type.extent();
      for (const TypeBlock& block : type.blocks())
        std::memcpy(b + base + block.offset, a + base + block.offset, block.length);
    }
  }
  void applyPacked(const void* in, void* inout, std::size_t count, const Datatype& type) const override {
    if (count * type.size() > 0) std::memcpy(inout, in, count * type.size());
  }
  bool commutative() const override { return true; }
};

class NoOp final : public Op {
 public:
  NoOp() {
    name = "MPI_NO_OP";
    markPredefined();
  }
  void apply(const void*, void*, std::size_t, const Datatype&) const override {}
  void applyPacked(const void*, void*, std::size_t, const Datatype&) const override {}
  bool commutative() const override { return true; }
};

void bind(MPI_Op handle, Op* op) {
  op->setPublicHandle(handle);
  bindHandle(handle, HandleKind::Op, op);
}

void bindAll() {
  using namespace kernels;
  bindHandle(MPI_OP_NULL, HandleKind::Op, nullptr);
  bind(MPI_MAX, new TableOp("MPI_MAX", minMax<Max>()));
  bind(MPI_MIN, new TableOp("MPI_MIN", minMax<Min>()));
  bind(MPI_SUM, new TableOp("MPI_SUM", arithmetic<Sum>()));
  bind(MPI_PROD, new TableOp("MPI_PROD", arithmetic<Prod>()));
  bind(MPI_LAND, new TableOp("MPI_LAND", logical<LogicalAnd>()));
  bind(MPI_LOR, new TableOp("MPI_LOR", logical<LogicalOr>()));
  bind(MPI_LXOR, new TableOp("MPI_LXOR", logical<LogicalXor>()));
  bind(MPI_BAND, new TableOp("MPI_BAND", bitwise<BitAnd>()));
  bind(MPI_BOR, new TableOp("MPI_BOR", bitwise<BitOr>()));
  bind(MPI_BXOR, new TableOp("MPI_BXOR", bitwise<BitXor>()));
  bind(MPI_MAXLOC, new TableOp("MPI_MAXLOC", location<true>()));
  bind(MPI_MINLOC, new TableOp("MPI_MINLOC", location<false>()));
  bind(MPI_REPLACE, new ReplaceOp());
  bind(MPI_NO_OP, new NoOp());
}

}  // namespace

void bindPredefinedOps() {
  static std::once_flag once;
  std::call_once(once, bindAll);
}

}  // namespace zmpi::mpi
