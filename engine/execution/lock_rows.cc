// LockRowsOp: row locks of SELECT ... FOR UPDATE / FOR SHARE (see operators.h).
#include "catalog/transaction.h"
#include "execution/modify_table.h"
#include "execution/operators.h"

namespace meridian::exec {

Status LockRowsOp::Open(const EvalContext* outer, ExecContext* exec) {
  exec_ = exec;
  return child_->Open(outer, exec);
}

Result<bool> LockRowsOp::Next(Row* row) {
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(row));
    if (!more) return false;
    if (exec_ == nullptr || exec_->txn == nullptr) return true;
    using R = catalog::Transaction::LockResult;
    MERIDIAN_ASSIGN_OR_RETURN(
        R r, exec_->txn->LockVersion(table_, scan_->last_rid(), /*lock_only=*/true, exec_->ctl,
                                     LockTimeoutMs(exec_), !nowait_ && !skip_locked_));
    switch (r) {
      case R::kLocked:
      case R::kAlreadyMine:
        return true;
      case R::kBusy:
        if (skip_locked_) continue;
        return Status::Error(sqlstate::kLockNotAvailable,
                             "could not obtain lock on row in relation \"" + table_->name() + "\"");
      case R::kUpdated:
        return Status::Error(sqlstate::kSerializationFailure,
                             "could not serialize access due to concurrent update");
    }
  }
}

void LockRowsOp::PruneColumns(const std::vector<bool>& needed) {
  child_->PruneColumns(needed);  // locking reads the scan's rid, no column
}

}  // namespace meridian::exec
