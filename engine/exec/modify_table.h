// INSERT, UPDATE and DELETE executors. Each runs a whole statement in one call while the
// caller holds the target table's exclusive lock, in two phases so that a statement either
// fully applies or leaves nothing behind, and never sees its own changes (Halloween problem):
//   1. compute: scan/evaluate every affected row, build the new tuples, check NOT NULL,
//      primary-key uniqueness (against the interim hash set) and tuple size — no writes;
//   2. apply: write the heap; if a write fails midway, the applied ones are undone.
#pragma once

#include <cstdint>

#include "exec/bound_statement.h"
#include "exec/operator.h"

namespace meridian::exec {

Result<uint64_t> ExecuteInsert(BoundInsert& insert, ExecContext* exec);
Result<uint64_t> ExecuteUpdate(BoundUpdate& update, ExecContext* exec);
Result<uint64_t> ExecuteDelete(BoundDelete& del, ExecContext* exec);

// Shared checks of the compute phase (modify_checks.cc).
// 23502 when row has NULL in a NOT NULL column of table.
Status CheckNotNull(const catalog::Table& table, const Row& row);
// 23505 with PostgreSQL's message and "Key (a, b)=(1, 2) already exists." detail.
Status DuplicateKeyError(const catalog::Table& table, const Row& row);
// Encodes row for table's heap; 54000 when the tuple is larger than the heap accepts.
Result<std::string> EncodeRow(const catalog::Table& table, const Row& row);

}  // namespace meridian::exec
