// SeqScanOp: a full heap scan that decodes tuples with the table's column types (or, for a
// system table, a walk over its rows in memory).
#include "catalog/transaction.h"
#include "exec/operators.h"
#include "storage/tuple.h"

namespace meridian::exec {

Status SeqScanOp::Open(const EvalContext* /*outer*/, ExecContext* exec) {
  exec_ = exec;
  MERIDIAN_RETURN_IF_ERROR(table_->CheckUsable());
  next_system_row_ = 0;
  if (table_->system_rows() == nullptr) cursor_ = table_->heap()->Scan();
  until_check_ = 0;
  return Status::Ok();
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
    MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor_.Next(&rid_, &bytes_));
    if (!more) return false;
    // Versions the statement's snapshot cannot see are skipped before decoding.
    if (txn != nullptr && !txn->Visible(storage::ReadTupleHeader(bytes_))) continue;
    MERIDIAN_RETURN_IF_ERROR(table_->DecodeRow(bytes_, row));
    row->resize(width_);
    return true;
  }
}

}  // namespace meridian::exec
