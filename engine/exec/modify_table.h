// INSERT, UPDATE and DELETE executors. Each runs a whole statement in one call while the
// caller holds the target table's exclusive lock, in two phases so that a statement either
// fully applies or leaves nothing behind, and never sees its own changes (Halloween problem):
//   1. compute: find every affected row (through the cheapest access path), build the new
//      tuples, check NOT NULL, unique indexes (primary key, UNIQUE, unique indexes) and tuple
//      size — no writes;
//   2. apply: write the heap and every index; if a write fails midway, the applied ones are
//      undone.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/bound_statement.h"
#include "exec/operator.h"

namespace meridian::exec {

Result<uint64_t> ExecuteInsert(BoundInsert& insert, ExecContext* exec);
Result<uint64_t> ExecuteUpdate(BoundUpdate& update, ExecContext* exec);
Result<uint64_t> ExecuteDelete(BoundDelete& del, ExecContext* exec);

// Shared checks of the compute phase (modify_checks.cc).
// 23502 when row has NULL in a NOT NULL column of table.
Status CheckNotNull(const catalog::Table& table, const Row& row);
// 23505 with PostgreSQL's message naming the index and "Key (a, b)=(1, 2) already exists.".
Status DuplicateKeyError(const catalog::Table& table, const catalog::Index& index, const Row& row);
// Encodes row for table's heap; 54000 when the tuple is larger than the heap accepts.
Result<std::string> EncodeRow(const catalog::Table& table, const Row& row);

// One row a statement gives a new index key: its new values and, for UPDATE, the row it
// replaces (old_row null for INSERT).
struct KeyChange {
  const Row* new_row = nullptr;
  const Row* old_row = nullptr;
  storage::Rid old_rid;
};
// 23505 when a change would give some unique index a second non-NULL entry for a key: a key
// present in the index under a row that keeps it, or two changes with the same key.
Status CheckUniqueIndexes(catalog::Table& table, const std::vector<KeyChange>& changes);

// Index maintenance of the apply phase: every index of table gains (loses) row's entry. On
// failure the entries already added (removed) are taken back.
Status InsertIndexEntries(catalog::Table& table, const Row& row, storage::Rid rid);
Status EraseIndexEntries(catalog::Table& table, const Row& row, storage::Rid rid);

// The rows of table that satisfy where (null: all), found through the cheapest access path,
// with their rids, in one pass and before anything is written. Polls exec->ctl.
struct MatchedRow {
  storage::Rid rid;
  Row row;
};
Result<std::vector<MatchedRow>> CollectMatches(const std::shared_ptr<catalog::Table>& table,
                                               BoundExprPtr where, ExecContext* exec);

}  // namespace meridian::exec
