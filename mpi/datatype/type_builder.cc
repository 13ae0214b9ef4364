#include "mpi/datatype/type_builder.h"

#include <algorithm>

namespace zmpi::mpi {

void TypeMapBuilder::pushBlock(TypeBlock block) {
  if (block.length == 0) return;
  if (!blocks_.empty()) {
    TypeBlock& last = blocks_.back();
    if (last.offset + static_cast<std::ptrdiff_t>(last.length) == block.offset) {
      last.length += block.length;
      return;
    }
  }
  blocks_.push_back(block);
}

void TypeMapBuilder::pushRun(PrimitiveRun run) {
  if (run.count == 0) return;
  if (!runs_.empty()) {
    PrimitiveRun& last = runs_.back();
    if (last.primitive == run.primitive &&
        last.offset + static_cast<std::ptrdiff_t>(last.count * primitiveExtent(last.primitive)) == run.offset) {
      last.count += run.count;
      return;
    }
  }
  runs_.push_back(run);
}

void TypeMapBuilder::append(const Datatype& type, std::ptrdiff_t displacement, std::size_t count) {
  if (count == 0) return;
  const std::ptrdiff_t extent = type.extent();
  const std::ptrdiff_t lastDisplacement = displacement + static_cast<std::ptrdiff_t>(count - 1) * extent;
  // With a negative extent (a resized type may have one) the last copy is the lowest.
  const std::ptrdiff_t low = std::min(displacement, lastDisplacement);
  const std::ptrdiff_t high = std::max(displacement, lastDisplacement);

  if (type.explicitLb()) {
    lbMarker_ = hasLbMarker_ ? std::min(lbMarker_, low + type.lb()) : low + type.lb();
    hasLbMarker_ = true;
  }
  if (type.explicitUb()) {
    const std::ptrdiff_t ub = high + type.lb() + type.extent();
    ubMarker_ = hasUbMarker_ ? std::max(ubMarker_, ub) : ub;
    hasUbMarker_ = true;
  }
  if (type.size() == 0) return;  // no data: only its markers count

  if (!type.explicitLb()) {
    dataLb_ = hasDataLb_ ? std::min(dataLb_, low + type.lb()) : low + type.lb();
    hasDataLb_ = true;
  }
  if (!type.explicitUb()) {
    const std::ptrdiff_t ub = high + type.lb() + type.extent();
    dataUb_ = hasDataUb_ ? std::max(dataUb_, ub) : ub;
    hasDataUb_ = true;
  }
  const std::ptrdiff_t trueLb = low + type.trueLb();
  const std::ptrdiff_t trueUb = high + type.trueLb() + type.trueExtent();
  trueLb_ = hasTrue_ ? std::min(trueLb_, trueLb) : trueLb;
  trueUb_ = hasTrue_ ? std::max(trueUb_, trueUb) : trueUb;
  hasTrue_ = true;
  size_ += count * type.size();

  // Copies of a gap-free type are one block (one run): no loop over the copies.
  const std::vector<TypeBlock>& blocks = type.blocks();
  if (blocks.size() == 1 && (count == 1 || static_cast<std::ptrdiff_t>(blocks[0].length) == extent)) {
    pushBlock({displacement + blocks[0].offset, blocks[0].length * count});
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      const std::ptrdiff_t base = displacement + static_cast<std::ptrdiff_t>(i) * extent;
      for (const TypeBlock& block : blocks) pushBlock({base + block.offset, block.length});
    }
  }
  const std::vector<PrimitiveRun>& runs = type.runs();
  if (runs.size() == 1 && (count == 1 || type.denseRun())) {
    pushRun({displacement + runs[0].offset, runs[0].primitive, runs[0].count * count});
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      const std::ptrdiff_t base = displacement + static_cast<std::ptrdiff_t>(i) * extent;
      for (const PrimitiveRun& run : runs) pushRun({base + run.offset, run.primitive, run.count});
    }
  }
}

void TypeMapBuilder::setExplicitBounds(std::ptrdiff_t lb, std::ptrdiff_t ub) {
  hasLbMarker_ = hasUbMarker_ = true;
  lbMarker_ = lb;
  ubMarker_ = ub;
}

Datatype* TypeMapBuilder::finish(int combiner) {
  auto* type = new Datatype();
  const std::ptrdiff_t lb = hasLbMarker_ ? lbMarker_ : (hasDataLb_ ? dataLb_ : 0);
  const std::ptrdiff_t ub = hasUbMarker_ ? ubMarker_ : (hasDataUb_ ? dataUb_ : lb);
  type->mutableBlocks() = std::move(blocks_);
  type->mutableRuns() = std::move(runs_);
  type->setSize(size_);
  type->setBounds(lb, ub);
  if (hasTrue_) type->setTrueBounds(trueLb_, trueUb_);
  type->setExplicitBounds(hasLbMarker_, hasUbMarker_);
  type->combiner = combiner;
  type->finalize();
  return type;
}

}  // namespace zmpi::mpi
