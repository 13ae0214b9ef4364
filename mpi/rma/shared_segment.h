#pragma once
// A POSIX shared-memory segment (shm_open + mmap) holding the memory of the ranks of one
// host in a shared window (MPI_Win_allocate_shared). The host's lowest rank creates it
// (mode 0600, exclusive: a stale name from a crashed run is an error, not silently reused);
// the others open it by name once the creator has sized it. The name carries the job id,
// so a crashed job's segments can be found and removed; the creator unlinks it when the
// window is freed. Each process unmaps its own mapping on destruction.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace zmpi::mpi::rma {

class SharedSegment {
 public:
  static std::unique_ptr<SharedSegment> create(const std::string& name, std::size_t bytes);
  static std::unique_ptr<SharedSegment> open(const std::string& name, std::size_t bytes);
  ~SharedSegment();
  SharedSegment(const SharedSegment&) = delete;
  SharedSegment& operator=(const SharedSegment&) = delete;

  char* data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string& name() const { return name_; }
  // Removes the name; mappings stay valid. Only the creator calls this, once.
  void unlink();

  // "/zmpi-<job hash>-<creator pid>-w<window id>" (transport/job_files.h).
  static std::string nameFor(const std::string& jobId, int creatorPid, uint32_t windowId);

 private:
  SharedSegment(std::string name, char* data, std::size_t size) : name_(std::move(name)), data_(data), size_(size) {}
  static std::unique_ptr<SharedSegment> map(const std::string& name, int fd, std::size_t bytes);

  std::string name_;
  char* data_;
  std::size_t size_;
  bool linked_ = true;
};

}  // namespace zmpi::mpi::rma
