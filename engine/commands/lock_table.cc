// LOCK [TABLE] name [, ...] [IN mode MODE] [NOWAIT]: PostgreSQL's explicit table lock, inside a
// transaction block only. Meridian's table locks last one statement (catalog/table_lock.h), so
// LOCK waits until the lock it asks for could be granted — an ACCESS SHARE lock waits for DDL
// running on the table, the stronger modes also for the statements reading or writing it —
// and then lets it go: it is not held to the end of the transaction (docs/sql.md).
#include "commands/ddl.h"

namespace meridian::exec {

namespace {

// ACCESS SHARE, ROW SHARE and ROW EXCLUSIVE conflict only with the modes DDL takes; the
// others with writers too. (Every mode is allowed in a read-only transaction, as in
// PostgreSQL outside recovery.)
bool LockModeIsStrong(const std::string& mode) {
  return mode != "ACCESS SHARE" && mode != "ROW SHARE" && mode != "ROW EXCLUSIVE";
}

}  // namespace

Status ExecuteLock(const ast::LockStmt& stmt, catalog::Catalog* catalog, ExecControl& ctl,
                   bool in_transaction_block, uint64_t session) {
  if (!in_transaction_block) {
    return Status::Error(sqlstate::kNoActiveSqlTransaction,
                         "LOCK TABLE can only be used in transaction blocks");
  }
  catalog::LockSet locks;
  const catalog::LockMode mode =
      LockModeIsStrong(stmt.mode) ? catalog::LockMode::kExclusive : catalog::LockMode::kShared;
  for (size_t i = 0; i < stmt.tables.size(); ++i) {
    MERIDIAN_RETURN_IF_ERROR(catalog->CheckSchemaOf(stmt.tables[i]));
    std::shared_ptr<catalog::Table> table = catalog->Find(stmt.tables[i]);
    if (table == nullptr) {
      const uint32_t pos = i < stmt.table_locs.size() ? stmt.table_locs[i].position : 0;
      if (catalog->FindView(stmt.tables[i], session) != nullptr) {
        continue;  // a view: PostgreSQL locks the tables it reads; nothing to wait for here
      }
      return Status::Error(sqlstate::kUndefinedTable,
                           "relation \"" + ast::DisplayName(stmt.tables[i]) + "\" does not exist")
          .WithPosition(pos);
    }
    locks.Add(std::move(table), mode);
  }
  MERIDIAN_RETURN_IF_ERROR(locks.AcquireAll(&ctl));
  locks.ReleaseAll();
  return Status::Ok();
}

}  // namespace meridian::exec
