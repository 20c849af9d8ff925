// SeqScanOp: a full heap scan that decodes tuples with the table's column types.
#include "exec/operators.h"
#include "storage/tuple.h"

namespace meridian::exec {

Status SeqScanOp::Open(const EvalContext* /*outer*/, ExecContext* exec) {
  exec_ = exec;
  MERIDIAN_RETURN_IF_ERROR(table_->CheckUsable());
  cursor_ = table_->heap()->Scan();
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
  MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor_.Next(&rid_, &bytes_));
  if (!more) return false;
  MERIDIAN_RETURN_IF_ERROR(storage::DecodeTuple(bytes_, table_->types(), row));
  return true;
}

}  // namespace meridian::exec
