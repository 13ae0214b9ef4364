#pragma once
// Where the data of a file view lies in the file (MPI-3.1 section 13.3). A view is a
// displacement plus a filetype tiled from it: tile k starts at disp + k * extent and holds
// data at the filetype's byte blocks. The program sees the view as one stream of data
// bytes (offsets count etypes; callers multiply by the etype size). The mapper turns a
// range of that stream into file byte ranges, a stream position into a file offset
// (MPI_File_get_byte_offset), and a file size back into a stream position (MPI_SEEK_END).
#include <cstdint>
#include <functional>
#include <vector>

#include "mpi/datatype/datatype.h"

namespace zmpi::mpi::io {

struct FileSegment {
  std::int64_t offset;  // absolute, bytes
  std::uint64_t length;
  bool operator==(const FileSegment&) const = default;
};

class ViewMapper {
 public:
  // The file's own bytes from `displacement` on (an MPI_BYTE filetype).
  explicit ViewMapper(std::int64_t displacement = 0);
  // `blocks`: the filetype's byte blocks in type-map order, with non-negative, non-decreasing
  // offsets and non-zero total length; `extent` > 0 (the view checks both, view.h).
  ViewMapper(std::int64_t displacement, std::vector<TypeBlock> blocks, std::int64_t extent);

  // Calls `visit` with the file ranges holding stream bytes [start, start + length), in
  // stream order; ranges that touch are merged into one. Stops early when visit is false.
  void forEachSegment(std::uint64_t start, std::uint64_t length,
                      const std::function<bool(const FileSegment&)>& visit) const;
  std::vector<FileSegment> segments(std::uint64_t start, std::uint64_t length) const;

  // The file offset of stream byte `position`.
  std::int64_t fileOffsetOf(std::uint64_t position) const;
  // How many stream bytes lie below file offset `fileSize`: where the view ends in a file
  // of that size.
  std::uint64_t streamBytesBelow(std::int64_t fileSize) const;

  std::int64_t displacement() const { return displacement_; }
  bool contiguous() const { return contiguous_; }

 private:
  // The block holding in-tile data byte `within` (< tileBytes_).
  std::size_t blockOf(std::uint64_t within) const;

  std::int64_t displacement_;
  std::vector<TypeBlock> blocks_;
  std::vector<std::uint64_t> before_;  // data bytes in the blocks before block i
  std::uint64_t tileBytes_ = 0;
  std::int64_t extent_ = 0;
  std::int64_t firstOffset_ = 0;  // lowest block offset
  std::int64_t lastEnd_ = 0;      // highest block end
  bool contiguous_ = false;       // one block filling the extent: the stream is the file
};

}  // namespace zmpi::mpi::io
