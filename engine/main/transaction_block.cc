// TransactionBlock: PostgreSQL's transaction block rules (see transaction_block.h).
#include "main/transaction_block.h"

#include "main/session_settings.h"
#include "main/temp_tables.h"

namespace meridian::exec {

namespace {

using Action = ast::TransactionStmt::Action;

catalog::Isolation IsolationOf(const std::string& name) {
  // SERIALIZABLE runs as snapshot isolation (REPEATABLE READ), READ UNCOMMITTED as READ
  // COMMITTED, as PostgreSQL does for the latter.
  return name == "repeatable read" || name == "serializable" ? catalog::Isolation::kRepeatableRead
                                                             : catalog::Isolation::kReadCommitted;
}

Status Failed() {
  return Status::Error(sqlstate::kInFailedSqlTransaction,
                       "current transaction is aborted, commands ignored until end of "
                       "transaction block");
}

}  // namespace

void CommitInFlight::Done(Result<txn::Timestamp> ts) {
  std::function<void()> done;
  {
    std::lock_guard lock(mu_);
    ts_ = std::move(ts);
    done_ = true;
    done = std::move(on_done_);
  }
  cv_.notify_all();
  if (done) done();
}

void CommitInFlight::WhenDone(std::function<void()> done) {
  {
    std::lock_guard lock(mu_);
    if (!done_) {
      on_done_ = std::move(done);
      return;
    }
  }
  done();
}

Status CommitInFlight::Finish(catalog::Catalog* catalog, SessionSettings& settings) {
  if (finished_) return Status::Internal("commit finished twice");
  finished_ = true;
  Result<txn::Timestamp> ts = Status::Internal("commit running");
  {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return done_; });
    ts = ts_;
  }
  const Status committed = catalog->FinishCommit(*txn_, ts);
  settings.TransactionEnded(committed.ok());
  txn_.reset();
  MERIDIAN_RETURN_IF_ERROR(committed);
  RunOnCommitActions(catalog, settings.session_id());
  return Status::Ok();
}

Result<TransactionBlock::StatementTxn> TransactionBlock::Enter(catalog::Catalog* catalog,
                                                               const SessionSettings& settings,
                                                               const ExecControl* ctl,
                                                               bool shows_rows) {
  if (failed_) return Failed();
  StatementTxn stx;
  if (txn_ != nullptr) {
    stx.txn = txn_;
    stx.mark = txn_->mark();
    ran_statement_ = true;
  } else {
    stx.txn = catalog->BeginTransaction(settings.default_repeatable_read()
                                            ? catalog::Isolation::kRepeatableRead
                                            : catalog::Isolation::kReadCommitted);
    stx.txn->set_read_only(settings.default_read_only());
    stx.autocommit = true;
  }
  MERIDIAN_RETURN_IF_ERROR(stx.txn->TakeStatementSnapshot(ctl, shows_rows));
  stx.ctl = ctl;
  return stx;
}

Status TransactionBlock::Leave(catalog::Catalog* catalog, const SessionSettings& settings,
                               StatementTxn& stx, Status st) {
  if (stx.autocommit) {
    if (st.ok() && stx.ctl != nullptr && stx.ctl->no_wait()) {
      if (DeferCommit(catalog, settings, *stx.ctl, stx.txn)) return Status::Ok();
      const bool read_only = !stx.txn->wrote() && stx.txn->dependencies().empty();
      if (!read_only || catalog->HasOnCommitTables()) st = ExecControl::WouldBlock();
    }
    if (st.ok()) {
      MERIDIAN_RETURN_IF_ERROR(catalog->CommitTransaction(*stx.txn, settings.synchronous_commit()));
      RunOnCommitActions(catalog, settings.session_id());
      return Status::Ok();
    }
    catalog->AbortTransaction(*stx.txn);
    return st;
  }
  if (!st.ok() && txn_ == stx.txn) {
    // A quick write refused under no_wait (Request::QuickWrite) runs again: the block stays.
    if (Status undone = txn_->RollbackTo(stx.mark); !undone.ok()) {
      failed_ = true;  // doomed: only ROLLBACK ends it
      return undone;
    }
    if (!ExecControl::IsWouldBlock(st)) failed_ = true;
  }
  return st;
}

bool TransactionBlock::DeferCommit(catalog::Catalog* catalog, const SessionSettings& settings,
                                   const ExecControl& ctl,
                                   const std::shared_ptr<catalog::Transaction>& t) {
  // The commit's own work after the group (stamping, below the limit; no ON COMMIT actions)
  // is bounded; the group is written by the committer thread, whose callback resumes the
  // server.
  if (!ctl.defer_commit() || !catalog::Catalog::CanStartCommit(*t) ||
      t->mark() > kMaxDeferredWrites || catalog->HasOnCommitTables()) {
    return false;
  }
  auto flight = std::make_shared<CommitInFlight>(t);
  in_flight_ = flight;
  catalog->StartCommit(*t, settings.synchronous_commit(),
                       [flight](Result<txn::Timestamp> ts) { flight->Done(std::move(ts)); });
  return true;
}

bool TransactionBlock::CanRetry(const StatementTxn& stx) const {
  return stx.autocommit || stx.txn->isolation() == catalog::Isolation::kReadCommitted;
}

void TransactionBlock::MarkFailed(const catalog::Transaction* txn) {
  if (txn_ != nullptr && txn_.get() == txn) failed_ = true;
}

void TransactionBlock::End(catalog::Catalog* catalog) {
  if (txn_ != nullptr) catalog->AbortTransaction(*txn_);
  if (txn_ != nullptr) UndoDdl(catalog, 0);  // a rollback (COMMIT moves txn_ out first)
  txn_.reset();
  failed_ = false;
  ran_statement_ = false;
  savepoints_.clear();
  savepoint_ddl_.clear();
  ddl_undo_.clear();
}

void TransactionBlock::AddDdlUndo(std::function<void(catalog::Catalog*)> undo) {
  if (active() && undo) ddl_undo_.push_back(std::move(undo));
}

void TransactionBlock::UndoDdl(catalog::Catalog* catalog, size_t keep) {
  while (ddl_undo_.size() > keep) {
    std::function<void(catalog::Catalog*)> undo = std::move(ddl_undo_.back());
    ddl_undo_.pop_back();
    undo(catalog);
  }
}

void TransactionBlock::Close(catalog::Catalog* catalog) { End(catalog); }

Status TransactionBlock::SetReadOnly(bool read_only) {
  if (!active()) return Status::Ok();
  if (!read_only && txn_->read_only() && ran_statement_) {
    return Status::Error(sqlstate::kActiveSqlTransaction,
                         "transaction read-write mode must be set before any query");
  }
  txn_->set_read_only(read_only);
  return Status::Ok();
}

Result<std::string> TransactionBlock::Execute(const ast::TransactionStmt& stmt,
                                              catalog::Catalog* catalog, SessionSettings& settings,
                                              std::string* notice, std::string* notice_state,
                                              const ExecControl* ctl) {
  auto find_savepoint = [&](const char* verb) -> Result<size_t> {
    if (!active()) {
      return Status::Error(sqlstate::kNoActiveSqlTransaction,
                           std::string(verb) + " can only be used in transaction blocks");
    }
    for (size_t i = savepoints_.size(); i-- > 0;) {
      if (savepoints_[i].first == stmt.savepoint) return i;
    }
    return Status::Error(sqlstate::kInvalidSavepointSpecification,
                         "savepoint \"" + stmt.savepoint + "\" does not exist")
        .WithPosition(stmt.savepoint_loc.position);
  };
  switch (stmt.action) {
    case Action::kBegin: {
      const std::string tag = stmt.start_transaction ? "START TRANSACTION" : "BEGIN";
      if (active()) {
        *notice = "there is already a transaction in progress";
        *notice_state = sqlstate::kActiveSqlTransaction;
        return tag;
      }
      std::string level = stmt.isolation;
      if (level.empty()) {
        MERIDIAN_ASSIGN_OR_RETURN(level, settings.Show("default_transaction_isolation"));
      }
      txn_ = catalog->BeginTransaction(IsolationOf(level));
      txn_->set_read_only(stmt.read_only.value_or(settings.default_read_only()));
      settings.TransactionBegun();
      isolation_name_ = level;
      failed_ = false;
      ran_statement_ = false;
      return tag;
    }
    case Action::kCommit: {
      if (!active()) {
        *notice = "there is no transaction in progress";
        *notice_state = sqlstate::kNoActiveSqlTransaction;
        return std::string("COMMIT");
      }
      if (failed_) {
        End(catalog);
        settings.TransactionEnded(/*committed=*/false);
        return std::string("ROLLBACK");
      }
      if (ctl != nullptr && ctl->no_wait()) {
        // On a thread that must not block (Request::QuickWrite): a block that wrote nothing
        // commits without waiting; a small writer goes to the group committer, whose callback
        // resumes the server (CommitInFlight); anything else is refused, the block as it was.
        const bool read_only = !txn_->wrote() && txn_->dependencies().empty();
        if (!ddl_undo_.empty() || catalog->HasOnCommitTables()) return ExecControl::WouldBlock();
        if (!read_only) {
          std::shared_ptr<catalog::Transaction> t = txn_;
          if (!DeferCommit(catalog, settings, *ctl, t)) return ExecControl::WouldBlock();
          txn_.reset();
          End(catalog);  // settings.TransactionEnded comes with CommitInFlight::Finish
          return std::string("COMMIT");
        }
      }
      std::shared_ptr<catalog::Transaction> t = std::move(txn_);
      std::vector<std::function<void(catalog::Catalog*)>> undo = std::move(ddl_undo_);
      End(catalog);  // nothing open any more, whatever the commit's outcome
      const Status committed = catalog->CommitTransaction(*t, settings.synchronous_commit());
      settings.TransactionEnded(committed.ok());
      if (!committed.ok()) {
        for (auto it = undo.rbegin(); it != undo.rend(); ++it) (*it)(catalog);
      }
      MERIDIAN_RETURN_IF_ERROR(committed);
      RunOnCommitActions(catalog, settings.session_id());
      return std::string("COMMIT");
    }
    case Action::kRollback:
      if (!active()) {
        *notice = "there is no transaction in progress";
        *notice_state = sqlstate::kNoActiveSqlTransaction;
      }
      End(catalog);
      settings.TransactionEnded(/*committed=*/false);
      return std::string("ROLLBACK");
    case Action::kSavepoint:
      if (!active()) {
        return Status::Error(sqlstate::kNoActiveSqlTransaction,
                             "SAVEPOINT can only be used in transaction blocks");
      }
      if (failed_) return Failed();
      savepoints_.emplace_back(stmt.savepoint, txn_->mark());
      savepoint_ddl_.push_back(ddl_undo_.size());
      settings.SavepointSet();
      return std::string("SAVEPOINT");
    case Action::kRelease: {
      if (failed_) return Failed();
      MERIDIAN_ASSIGN_OR_RETURN(size_t i, find_savepoint("RELEASE SAVEPOINT"));
      savepoints_.resize(i);
      savepoint_ddl_.resize(i);
      settings.SavepointsKept(i);
      return std::string("RELEASE");
    }
    case Action::kRollbackTo: {
      MERIDIAN_ASSIGN_OR_RETURN(size_t i, find_savepoint("ROLLBACK TO SAVEPOINT"));
      if (Status undone = txn_->RollbackTo(savepoints_[i].second); !undone.ok()) {
        failed_ = true;  // doomed (Transaction::doomed): only ROLLBACK ends it
        return undone;
      }
      UndoDdl(catalog, savepoint_ddl_[i]);
      savepoints_.resize(i + 1);
      savepoint_ddl_.resize(i + 1);
      settings.RollbackToSavepoint(i);
      failed_ = false;
      return std::string("ROLLBACK");
    }
    case Action::kSetTransaction:
      if (!active()) {
        *notice = "SET TRANSACTION can only be used in transaction blocks";
        *notice_state = sqlstate::kNoActiveSqlTransaction;
        return std::string("SET");
      }
      if (failed_) return Failed();
      if (!stmt.isolation.empty()) {
        if (ran_statement_) {
          return Status::Error(sqlstate::kActiveSqlTransaction,
                               "SET TRANSACTION ISOLATION LEVEL must be called before any query");
        }
        txn_->set_isolation(IsolationOf(stmt.isolation));
        isolation_name_ = stmt.isolation;
      }
      if (stmt.read_only) MERIDIAN_RETURN_IF_ERROR(SetReadOnly(*stmt.read_only));
      return std::string("SET");
    case Action::kSetSessionDefaults:
      if (!stmt.isolation.empty()) {
        MERIDIAN_RETURN_IF_ERROR(
            settings.Set("default_transaction_isolation", {stmt.isolation}).status());
      }
      if (stmt.read_only) {
        MERIDIAN_RETURN_IF_ERROR(
            settings.Set("default_transaction_read_only", {*stmt.read_only ? "on" : "off"})
                .status());
      }
      return std::string("SET");
  }
  return Status::Internal("unknown transaction statement");
}

}  // namespace meridian::exec
