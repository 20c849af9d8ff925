// Foreign keys (catalog::ForeignKey) enforced by the INSERT, UPDATE and DELETE executors at the
// end of each statement (PostgreSQL fires its RI triggers after the statement's rows, so a
// statement may insert a child before its parent). Protocol under MVCC (docs/txn.md,
// "Foreign keys"):
//   child side (a new or changed referencing row): the referenced key is looked up in the
//     parent's unique index in the newest committed state (FindConflict: running writers of
//     the key are waited for), and the parent version found is locked FOR KEY SHARE
//     (catalog/key_share_locks.h, shared) until this transaction ends, so no concurrent DELETE
//     or UPDATE of it can commit meanwhile; 23503 when none exists.
//   parent side (a deleted row, or an updated one whose key changed): the parent's own row
//     write lock waits for every transaction that locked it as a child's parent; the children
//     are then found in the newest committed state (an index on the referencing columns when
//     one exists, else a scan of every version), waiting for running deleters of matching
//     versions (running creators are left out: they lock the parent before they commit, wait
//     for this transaction and find the key gone); the action (NO ACTION, RESTRICT, CASCADE,
//     SET NULL, SET DEFAULT) applies to them, cascading further.
#pragma once

#include <memory>
#include <vector>

#include "execution/operator.h"

namespace meridian::catalog {
class Table;
}

namespace meridian::exec {

// One statement's row changes of a table, for the foreign key checks.
struct TableChanges {
  std::vector<Row> inserted;
  std::vector<Row> deleted;
  std::vector<Row> updated_old;  // parallel: old and new versions of updated rows
  std::vector<Row> updated_new;
};

// Whether table has foreign keys or is referenced by one (then the executor collects its
// TableChanges).
bool HasForeignKeys(const catalog::Table& table, ExecContext* exec);

// Enforces every foreign key of table (child side: inserted rows, updated rows whose
// referencing columns changed) and every foreign key referencing it (parent side: deleted
// rows, updated rows whose referenced key changed), with their actions. 23503 with
// PostgreSQL's messages on a violation.
Status EnforceForeignKeys(const std::shared_ptr<catalog::Table>& table, const TableChanges& changes,
                          ExecContext* exec);

}  // namespace meridian::exec
