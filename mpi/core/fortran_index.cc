#include "mpi/core/fortran_index.h"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace zmpi::mpi {
namespace {

// Chunks are allocated as indices reach them and never moved or freed, so a reader needs
// no lock: it loads the chunk pointer, then the slot (both published with release stores).
constexpr int32_t kIndexChunkBits = 12;
constexpr int32_t kIndexChunkSlots = 1 << kIndexChunkBits;
constexpr int32_t kIndexChunks = 1024;  // 4 Mi indices per kind; the chunk array is 8 KiB
constexpr int kIndexKinds = static_cast<int>(HandleKind::File) + 1;

using IndexSlot = std::atomic<void*>;

class IndexTable {
 public:
  constexpr IndexTable() = default;

  void* at(int32_t index) const {
    if (index < 0 || index >= kIndexChunkSlots * kIndexChunks) return nullptr;
    const IndexSlot* chunk = chunks_[static_cast<size_t>(index >> kIndexChunkBits)].load(std::memory_order_acquire);
    return chunk ? chunk[index & (kIndexChunkSlots - 1)].load(std::memory_order_acquire) : nullptr;
  }

  int32_t assign(HandleHeader& header) {
    std::lock_guard lock(mutex_);
    if (const int32_t held = indexField(header).load(std::memory_order_relaxed); held != 0) return held - 1;
    int32_t index = -1;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else if (next_ < kIndexChunkSlots * kIndexChunks) {
      index = next_++;
    } else {
      return -1;
    }
    place(index, header);
    ++inUse_;
    return index;
  }

  void reserve(HandleHeader& header, int32_t index) {
    std::lock_guard lock(mutex_);
    if (indexField(header).load(std::memory_order_relaxed) == index + 1) return;
    place(index, header);
    ++inUse_;
    if (index >= next_) next_ = index + 1;
  }

  void release(HandleHeader& header) {
    std::lock_guard lock(mutex_);
    const int32_t held = indexField(header).load(std::memory_order_relaxed);
    if (held == 0) return;
    slot(held - 1).store(nullptr, std::memory_order_release);
    indexField(header).store(0, std::memory_order_release);
    free_.push_back(held - 1);
    --inUse_;
  }

  int32_t inUse() {
    std::lock_guard lock(mutex_);
    return inUse_;
  }

 private:
  static std::atomic_ref<int32_t> indexField(HandleHeader& header) { return std::atomic_ref(header.fortranIndex); }

  IndexSlot& slot(int32_t index) {
    auto& chunkPointer = chunks_[static_cast<size_t>(index >> kIndexChunkBits)];
    IndexSlot* chunk = chunkPointer.load(std::memory_order_relaxed);
    if (chunk == nullptr) {
      owned_.push_back(std::make_unique<IndexSlot[]>(kIndexChunkSlots));  // value-initialized: null
      chunk = owned_.back().get();
      chunkPointer.store(chunk, std::memory_order_release);
    }
    return chunk[index & (kIndexChunkSlots - 1)];
  }

  void place(int32_t index, HandleHeader& header) {
    slot(index).store(&header, std::memory_order_release);
    indexField(header).store(index + 1, std::memory_order_release);
  }

  std::array<std::atomic<IndexSlot*>, kIndexChunks> chunks_{};
  std::mutex mutex_;
  std::vector<std::unique_ptr<IndexSlot[]>> owned_;
  std::vector<int32_t> free_;
  int32_t next_ = 0;
  int32_t inUse_ = 0;
};

// Tables live for the whole process: constant-initialized (no guard on the lookup path)
// and never destroyed (handles may be retired from atexit, after static destructors ran).
union Tables {
  constexpr Tables() : tables() {}
  ~Tables() {}  // NOLINT(modernize-use-equals-default): = default would destroy the tables
  std::array<IndexTable, kIndexKinds> tables;
};
constinit Tables allTables;

IndexTable& indexTable(HandleKind kind) { return allTables.tables[static_cast<size_t>(kind)]; }

}  // namespace

void* fortranHandleAt(HandleKind kind, int32_t index) { return indexTable(kind).at(index); }

int32_t fortranIndexOf(HandleHeader& header) {
  if (const int32_t held = std::atomic_ref(header.fortranIndex).load(std::memory_order_acquire); held != 0) {
    return held - 1;
  }
  return indexTable(header.kind).assign(header);
}

void reserveFortranIndex(HandleKind kind, HandleHeader& header, int32_t index) {
  indexTable(kind).reserve(header, index);
}

int32_t fortranIndicesInUse(HandleKind kind) { return indexTable(kind).inUse(); }

void retireHandle(HandleHeader& header) {
  header.magic = 0;
  if (std::atomic_ref(header.fortranIndex).load(std::memory_order_acquire) != 0)
    indexTable(header.kind).release(header);
}

}  // namespace zmpi::mpi
