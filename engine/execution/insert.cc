// INSERT executor: evaluates every source row, fills defaults, checks NOT NULL and sizes, then
// appends the versions and their index entries (unique keys checked per entry). See
// modify_table.h.
#include "execution/evaluator.h"
#include "execution/foreign_keys.h"
#include "execution/modify_table.h"

namespace meridian::exec {

Result<uint64_t> ExecuteInsert(BoundInsert& b, ExecContext* exec) {
  catalog::Table& table = *b.table;
  MERIDIAN_RETURN_IF_ERROR(table.CheckUsable());
  const size_t ncols = table.schema().columns.size();

  // Phase 1: compute and validate every row.
  MERIDIAN_RETURN_IF_ERROR(b.source->Open(nullptr, exec));
  Row empty;
  EvalContext ctx{&empty, nullptr, exec};
  std::vector<Row> rows;
  std::vector<std::string> tuples;
  Row src;
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, b.source->Next(&src));
    if (!more) break;
    if (--until_check <= 0) {
      MERIDIAN_RETURN_IF_ERROR(exec->ctl->Check());
      until_check = kCheckInterval;
    }
    Row row(ncols);
    for (size_t c = 0; c < ncols; ++c) {
      if (b.column_source[c] >= 0) {
        row[c] = std::move(src[b.column_source[c]]);
      } else if (b.defaults[c] != nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(row[c], Eval(*b.defaults[c], ctx));
      }
    }
    MERIDIAN_RETURN_IF_ERROR(CheckNotNull(table, row));
    MERIDIAN_RETURN_IF_ERROR(CheckConstraints(table, b.checks, row, exec));
    MERIDIAN_ASSIGN_OR_RETURN(std::string bytes, EncodeRow(table, row));
    tuples.push_back(std::move(bytes));
    rows.push_back(std::move(row));
  }
  if (b.on_conflict != nullptr) return InsertOnConflict(b, rows, tuples, exec);
  // Phase 2: append the versions and their index entries (unique keys checked there).
  for (size_t i = 0; i < tuples.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(storage::Rid rid, InsertVersion(b.table, std::move(tuples[i]), exec));
    MERIDIAN_RETURN_IF_ERROR(AddIndexEntries(table, rows[i], rid, exec));
    MERIDIAN_RETURN_IF_ERROR(AddReturnedRow(b.returning, rows[i], exec));
  }
  // Foreign keys once every row is in (a row may reference one inserted after it).
  if (HasForeignKeys(table, exec)) {
    TableChanges changes;
    changes.inserted = std::move(rows);
    MERIDIAN_RETURN_IF_ERROR(EnforceForeignKeys(b.table, changes, exec));
  }
  table.AdjustRows(static_cast<int64_t>(tuples.size()));
  table.NoteChanges(static_cast<int64_t>(tuples.size()));
  return static_cast<uint64_t>(tuples.size());
}

}  // namespace meridian::exec
