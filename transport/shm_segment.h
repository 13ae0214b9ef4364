#pragma once
// A POSIX shared-memory segment (shm_open + mmap), RAII. The creator makes it 0600, sizes
// and maps it before its name is ever sent to anyone (region-event rule 1: publish
// before reference) and unlinks it when it goes; openers only map it.
#include <cstddef>
#include <string>

namespace zmpi::transport {

class SharedSegment {
 public:
  // Creates (O_EXCL) and maps `bytes` bytes; zero-filled by the kernel.
  static SharedSegment create(const std::string& name, std::size_t bytes);
  // Maps an existing segment; its size is read from the object.
  static SharedSegment open(const std::string& name);

  SharedSegment() = default;
  ~SharedSegment();
  SharedSegment(SharedSegment&& other) noexcept;
  SharedSegment& operator=(SharedSegment&& other) noexcept;
  SharedSegment(const SharedSegment&) = delete;
  SharedSegment& operator=(const SharedSegment&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string& name() const { return name_; }

  // Removes the name now (the creator only): mappings stay valid, and nothing is left
  // behind if the process dies later.
  void unlinkName();

  // Removes every segment whose name starts with `prefix` (a crashed job's leftovers).
  static int removeAll(const std::string& prefix);

 private:
  void release();
  std::string name_;
  void* data_ = nullptr;
  std::size_t size_ = 0;
  bool owner_ = false;
};

}  // namespace zmpi::transport
