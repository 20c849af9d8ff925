// SeqScanOp: a full heap scan that decodes tuples with the table's column types (or, for a
// system table, a walk over its rows in memory). The heap is read a page at a time (one pin and
// latch per page, the page's tuples copied out); each Next checks one tuple's visibility and
// decodes only the columns the query reads (PruneColumns) into the caller's row.
#include "catalog/transaction.h"
#include "execution/operators.h"
#include "storage/tuple.h"

namespace meridian::exec {

Status SeqScanOp::Open(const EvalContext* /*outer*/, ExecContext* exec) {
  exec_ = exec;
  MERIDIAN_RETURN_IF_ERROR(table_->CheckUsable());
  next_system_row_ = 0;
  if (table_->system_rows() == nullptr) {
    const uint32_t pages = table_->heap()->page_count();  // one look at the pool's file table
    table_->NoteHeapPages(pages);
    if (exec != nullptr && exec->ctl != nullptr && exec->ctl->no_wait() &&
        pages > kQuickScanPages) {
      return ExecControl::WouldBlock();  // too big for a quick read or write: the pool runs it
    }
    cursor_ = table_->heap()->Scan();
  }
  page_.slots.clear();
  next_tuple_ = 0;
  until_check_ = 0;
  return Status::Ok();
}

bool SeqScanOp::SmallTable() const {
  return table_->system_rows() == nullptr && table_->live_rows() <= kQuickScanRows;
}

void SeqScanOp::PruneColumns(const std::vector<bool>& needed) {
  needed_ = needed;
  prune_ = true;
}

Result<bool> SeqScanOp::Next(Row* row) {
  // The table may have been dropped or closed between two Fetch calls.
  MERIDIAN_RETURN_IF_ERROR(table_->CheckUsable());
  if (--until_check_ <= 0) {
    until_check_ = kCheckInterval;
    if (exec_ != nullptr && exec_->ctl != nullptr) MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
  }
  if (const std::vector<Row>* rows = table_->system_rows()) {  // a system table, in memory
    if (next_system_row_ >= rows->size()) return false;
    *row = (*rows)[next_system_row_++];
    return true;
  }
  const catalog::Transaction* txn = exec_ != nullptr ? exec_->txn : nullptr;
  while (true) {
    if (next_tuple_ >= page_.size()) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor_.NextPage(&page_));
      if (!more) return false;
      next_tuple_ = 0;
      if (exec_ != nullptr && exec_->ctl != nullptr &&
          exec_->ctl->SpendQuick(kQuickPageCost + static_cast<int64_t>(page_.size()))) {
        return ExecControl::WouldBlock();  // a quick statement met more rows than promised
      }
    }
    const size_t i = next_tuple_++;
    const std::string_view bytes = page_.tuple(i);
    // Versions the statement's snapshot cannot see are skipped before decoding.
    if (txn != nullptr && !txn->Visible(storage::ReadTupleHeader(bytes), *table_, page_.rid(i))) {
      continue;
    }
    rid_ = page_.rid(i);
    MERIDIAN_RETURN_IF_ERROR(table_->DecodeRow(bytes, row, prune_ ? &needed_ : nullptr));
    row->resize(width_);
    return true;
  }
}

}  // namespace meridian::exec
