#include "mpi/io/view_mapper.h"

#include <algorithm>
#include <utility>

namespace zmpi::mpi::io {

ViewMapper::ViewMapper(std::int64_t displacement) : ViewMapper(displacement, {{0, 1}}, 1) {}

ViewMapper::ViewMapper(std::int64_t displacement, std::vector<TypeBlock> blocks, std::int64_t extent)
    : displacement_(displacement), blocks_(std::move(blocks)), extent_(extent) {
  // Zero-length blocks carry no data and would make blockOf ambiguous.
  std::erase_if(blocks_, [](const TypeBlock& block) { return block.length == 0; });
  before_.reserve(blocks_.size());
  for (const TypeBlock& block : blocks_) {
    before_.push_back(tileBytes_);
    tileBytes_ += block.length;
    lastEnd_ = std::max(lastEnd_, block.offset + static_cast<std::int64_t>(block.length));
  }
  firstOffset_ = blocks_.empty() ? 0 : blocks_.front().offset;
  contiguous_ = blocks_.size() == 1 && blocks_[0].offset == 0 && static_cast<std::int64_t>(tileBytes_) == extent_;
}

std::size_t ViewMapper::blockOf(std::uint64_t within) const {
  const auto it = std::upper_bound(before_.begin(), before_.end(), within);
  return static_cast<std::size_t>(it - before_.begin()) - 1;
}

void ViewMapper::forEachSegment(std::uint64_t start, std::uint64_t length,
                                const std::function<bool(const FileSegment&)>& visit) const {
  if (length == 0 || tileBytes_ == 0) return;
  if (contiguous_) {
    visit({displacement_ + static_cast<std::int64_t>(start), length});
    return;
  }
  auto tile = static_cast<std::int64_t>(start / tileBytes_);
  const std::uint64_t within = start % tileBytes_;
  std::size_t block = blockOf(within);
  std::uint64_t skip = within - before_[block];
  FileSegment pending{0, 0};
  while (length > 0) {
    const TypeBlock& b = blocks_[block];
    const std::int64_t offset = displacement_ + tile * extent_ + b.offset + static_cast<std::int64_t>(skip);
    const std::uint64_t take = std::min<std::uint64_t>(b.length - skip, length);
    if (pending.length > 0 && pending.offset + static_cast<std::int64_t>(pending.length) == offset) {
      pending.length += take;
    } else {
      if (pending.length > 0 && !visit(pending)) return;
      pending = {offset, take};
    }
    length -= take;
    skip = 0;
    if (++block == blocks_.size()) {
      block = 0;
      ++tile;
    }
  }
  visit(pending);
}

std::vector<FileSegment> ViewMapper::segments(std::uint64_t start, std::uint64_t length) const {
  std::vector<FileSegment> out;
  forEachSegment(start, length, [&](const FileSegment& segment) {
    out.push_back(segment);
    return true;
  });
  return out;
}

std::int64_t ViewMapper::fileOffsetOf(std::uint64_t position) const {
  if (contiguous_ || tileBytes_ == 0) return displacement_ + static_cast<std::int64_t>(position);
  const auto tile = static_cast<std::int64_t>(position / tileBytes_);
  const std::uint64_t within = position % tileBytes_;
  const std::size_t block = blockOf(within);
  return displacement_ + tile * extent_ + blocks_[block].offset + static_cast<std::int64_t>(within - before_[block]);
}

std::uint64_t ViewMapper::streamBytesBelow(std::int64_t fileSize) const {
  const std::int64_t limit = fileSize - displacement_;
  if (limit <= 0 || tileBytes_ == 0) return 0;
  if (contiguous_) return static_cast<std::uint64_t>(limit);
  // Tiles that end below the limit count whole; the few after them (more than one only
  // when blocks reach past the extent) count block by block.
  std::int64_t tile = limit >= lastEnd_ ? (limit - lastEnd_) / extent_ + 1 : 0;
  std::uint64_t bytes = static_cast<std::uint64_t>(tile) * tileBytes_;
  for (; tile * extent_ + firstOffset_ < limit; ++tile) {
    for (const TypeBlock& block : blocks_) {
      const std::int64_t room = limit - tile * extent_ - block.offset;
      if (room > 0) bytes += std::min<std::uint64_t>(static_cast<std::uint64_t>(room), block.length);
    }
  }
  return bytes;
}

}  // namespace zmpi::mpi::io
