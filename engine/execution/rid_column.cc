// RidColumnOp: the rid of each row after its columns (UPDATE ... FROM, see operators.h).
#include "execution/operators.h"

namespace meridian::exec {

int64_t RidValue(storage::Rid rid) {
  return (static_cast<int64_t>(rid.page) << 16) | static_cast<int64_t>(rid.slot);
}

storage::Rid RidOfValue(int64_t v) {
  return storage::Rid{static_cast<uint32_t>(v >> 16), static_cast<uint16_t>(v & 0xFFFF)};
}

Result<bool> RidColumnOp::Next(Row* row) {
  MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(row));
  if (!more) return false;
  row->resize(width_ + 1);
  (*row)[width_] = Value::Int(RidValue(scan_->last_rid()));
  return true;
}

void RidColumnOp::PruneColumns(const std::vector<bool>& needed) {
  std::vector<bool> below(needed.begin(), needed.begin() + std::min(needed.size(), width_));
  child_->PruneColumns(below);
}

}  // namespace meridian::exec
