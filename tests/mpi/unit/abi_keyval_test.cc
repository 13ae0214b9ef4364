// Attribute caching (core/keyval.h) on mock worlds: the C callbacks a program registers
// (the ABI of MPI_Comm_copy_attr_function & co.) are called with the right handle, keyval,
// extra state and values; dup copies only what the callbacks say; deletion runs in reverse
// order of setting; failing callbacks surface their code.
#include <catch2/catch.hpp>
#include <climits>
#include <memory>
#include <vector>

#include "mock_world.h"
#include "mpi/core/error.h"
#include "mpi/core/keyval.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

struct Log {
  std::vector<int> deleted;  // keyvals, in call order
  std::vector<MPI_Comm> handles;
  std::vector<void*> extras;
  int copies = 0;
};
Log* events_ = nullptr;  // where the callbacks record, set by each test

int recordDelete(MPI_Comm comm, int keyval, void* value, void* extra) {
  events_->deleted.push_back(keyval);
  events_->handles.push_back(comm);
  events_->extras.push_back(extra);
  return MPI_SUCCESS;
}

// Copies only even values, and hands the new communicator value + 1.
int copyEven(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
  ++events_->copies;
  events_->handles.push_back(comm);
  const auto value = reinterpret_cast<intptr_t>(in);
  *flag = value % 2 == 0;
  if (*flag) *static_cast<void**>(out) = reinterpret_cast<void*>(value + 1);
  return MPI_SUCCESS;
}

int refuseCopy(MPI_Comm, int, void*, void*, void*, int*) { return MPI_ERR_NO_MEM; }

void* asValue(intptr_t v) { return reinterpret_cast<void*>(v); }

template <typename F>
void (*erased(F* f))() {
  return reinterpret_cast<void (*)()>(f);
}

// A second communicator over the same group, as MPI_Comm_dup would build it.
std::unique_ptr<Communicator> sibling(World& world, int context) {
  return std::make_unique<Communicator>(world, &world.commWorld().group(), context, Errhandler::fatal());
}

}  // namespace

TEST_CASE("MPI_COMM_WORLD carries Open MPI's predefined attributes, dups inherit them", "[keyval][mock]") {
  runMockWorlds(3, [](World& world) {
    Communicator& comm = world.commWorld();
    void* value = nullptr;
    REQUIRE(getCommAttribute(comm, MPI_TAG_UB, &value));
    CHECK(*static_cast<int*>(value) == INT_MAX);
    REQUIRE(getCommAttribute(comm, MPI_HOST, &value));
    CHECK(*static_cast<int*>(value) == MPI_PROC_NULL);
    REQUIRE(getCommAttribute(comm, MPI_IO, &value));
    CHECK(*static_cast<int*>(value) == MPI_ANY_SOURCE);
    REQUIRE(getCommAttribute(comm, MPI_WTIME_IS_GLOBAL, &value));
    CHECK(*static_cast<int*>(value) == 0);
    REQUIRE(getCommAttribute(comm, MPI_UNIVERSE_SIZE, &value));
    CHECK(*static_cast<int*>(value) == 3);
    CHECK_FALSE(getCommAttribute(world.commSelf(), MPI_TAG_UB, &value));
    CHECK_THROWS_MATCHES(setCommAttribute(comm, MPI_TAG_UB, nullptr), MpiError,
                         Catch::Predicate<MpiError>([](const MpiError& e) { return e.code() == MPI_ERR_KEYVAL; }));

    auto dup = sibling(world, 10);
    copyAttributesOnDup(comm, *dup);
    REQUIRE(getCommAttribute(*dup, MPI_TAG_UB, &value));
    CHECK(*static_cast<int*>(value) == INT_MAX);
    CHECK_FALSE(getCommAttribute(*dup, MPI_LASTUSEDCODE, &value));  // MPI_COMM_WORLD only
    deleteAllAttributes(*dup);
  });
}

TEST_CASE("dup calls the copy callback with the old handle and keeps what it flags", "[keyval][mock]") {
  Log events;
  events_ = &events;
  runMockWorlds(1, [](World& world) {
    int extra = 7;
    const int keyval = createKeyval(AttributeKind::Comm, erased(copyEven), erased(recordDelete), &extra);
    const int other = createKeyval(AttributeKind::Comm, erased(copyEven), nullptr, nullptr);
    auto original = sibling(world, 20);
    setCommAttribute(*original, keyval, asValue(4));
    setCommAttribute(*original, other, asValue(5));
    auto dup = sibling(world, 21);
    copyAttributesOnDup(*original, *dup);
    CHECK(events_->copies == 2);
    CHECK(events_->handles == std::vector<MPI_Comm>{original->handle(), original->handle()});
    void* value = nullptr;
    REQUIRE(getCommAttribute(*dup, keyval, &value));
    CHECK(value == asValue(5));
    CHECK_FALSE(getCommAttribute(*dup, other, &value));  // odd: not copied

    events_->handles.clear();
    deleteAllAttributes(*dup);
    CHECK(events_->deleted == std::vector<int>{keyval});
    CHECK(events_->handles == std::vector<MPI_Comm>{dup->handle()});
    CHECK(events_->extras == std::vector<void*>{&extra});
    deleteAllAttributes(*original);
    freeKeyval(AttributeKind::Comm, keyval);
    freeKeyval(AttributeKind::Comm, other);
  });
  events_ = nullptr;
}

TEST_CASE("deleteAll runs delete callbacks in reverse order of setting", "[keyval][mock]") {
  Log events;
  events_ = &events;
  runMockWorlds(1, [](World& world) {
    std::vector<int> keyvals;
    for (int i = 0; i < 4; ++i)
      keyvals.push_back(createKeyval(AttributeKind::Comm, nullptr, erased(recordDelete), nullptr));
    auto comm = sibling(world, 30);
    // Set out of keyval order; re-setting moves a value to the end.
    for (int index : {2, 0, 3, 1}) setCommAttribute(*comm, keyvals[index], asValue(index));
    setCommAttribute(*comm, keyvals[2], asValue(22));  // deletes the old value first
    CHECK(events_->deleted == std::vector<int>{keyvals[2]});
    events_->deleted.clear();
    deleteAllAttributes(*comm);
    CHECK(events_->deleted == std::vector<int>{keyvals[2], keyvals[1], keyvals[3], keyvals[0]});
    CHECK(comm->attributes.empty());
    for (int keyval : keyvals) freeKeyval(AttributeKind::Comm, keyval);
  });
  events_ = nullptr;
}

TEST_CASE("a freed keyval stays alive for the values still attached under it", "[keyval][mock]") {
  Log events;
  events_ = &events;
  runMockWorlds(1, [](World& world) {
    const int keyval = createKeyval(AttributeKind::Comm, nullptr, erased(recordDelete), nullptr);
    auto comm = sibling(world, 40);
    setCommAttribute(*comm, keyval, asValue(1));
    freeKeyval(AttributeKind::Comm, keyval);
    CHECK_FALSE(isKeyval(AttributeKind::Comm, keyval));
    void* value = nullptr;
    CHECK_THROWS_AS(getCommAttribute(*comm, keyval, &value), MpiError);
    deleteAllAttributes(*comm);
    CHECK(events_->deleted == std::vector<int>{keyval});
    CHECK_THROWS_AS(freeKeyval(AttributeKind::Comm, keyval), MpiError);
  });
  events_ = nullptr;
}

TEST_CASE("a failing copy callback's code is what dup fails with", "[keyval][mock]") {
  runMockWorlds(1, [](World& world) {
    const int keyval = createKeyval(AttributeKind::Comm, erased(refuseCopy), nullptr, nullptr);
    auto original = sibling(world, 50);
    setCommAttribute(*original, keyval, asValue(1));
    auto dup = sibling(world, 51);
    try {
      copyAttributesOnDup(*original, *dup);
      FAIL("copyAttributesOnDup did not throw");
    } catch (const MpiError& error) {
      CHECK(error.code() == MPI_ERR_NO_MEM);
    }
    deleteAllAttributes(*dup);
    deleteAllAttributes(*original);
    freeKeyval(AttributeKind::Comm, keyval);
  });
}

TEST_CASE("keyvals belong to one kind of object", "[keyval]") {
  const int typeKeyval = createKeyval(AttributeKind::Type, nullptr, nullptr, nullptr);
  CHECK(isKeyval(AttributeKind::Type, typeKeyval));
  CHECK_FALSE(isKeyval(AttributeKind::Comm, typeKeyval));
  CHECK_THROWS_AS(freeKeyval(AttributeKind::Comm, typeKeyval), MpiError);
  CHECK(isKeyval(AttributeKind::Win, MPI_WIN_BASE));
  CHECK_THROWS_AS(freeKeyval(AttributeKind::Win, MPI_WIN_BASE), MpiError);  // predefined
  freeKeyval(AttributeKind::Type, typeKeyval);
  CHECK(internedInt(12345) == internedInt(12345));
  CHECK(*internedInt(-3) == -3);
}
