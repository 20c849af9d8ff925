// INSERT executor: evaluates every source row, fills defaults, checks constraints, then
// inserts all tuples and their index entries (undoing the inserted ones if a write fails).
// See modify_table.h.
#include "exec/evaluator.h"
#include "exec/modify_table.h"

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
    MERIDIAN_ASSIGN_OR_RETURN(std::string bytes, EncodeRow(table, row));
    tuples.push_back(std::move(bytes));
    rows.push_back(std::move(row));
  }
  std::vector<KeyChange> changes(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) changes[i].new_row = &rows[i];
  MERIDIAN_RETURN_IF_ERROR(CheckUniqueIndexes(table, changes));

  // Phase 2: apply; undo on failure so the statement has no partial effect.
  std::vector<storage::Rid> inserted;
  inserted.reserve(tuples.size());
  for (size_t i = 0; i < tuples.size(); ++i) {
    auto rid = table.heap()->Insert(tuples[i]);
    Status st = rid.status();
    if (st.ok()) {
      st = InsertIndexEntries(table, rows[i], *rid);
      if (!st.ok()) (void)table.heap()->Delete(*rid);
    }
    if (!st.ok()) {
      for (size_t j = 0; j < inserted.size(); ++j) {
        (void)EraseIndexEntries(table, rows[j], inserted[j]);
        (void)table.heap()->Delete(inserted[j]);
      }
      return st;
    }
    inserted.push_back(*rid);
  }
  table.AdjustRows(static_cast<int64_t>(tuples.size()));
  table.NoteChanges(static_cast<int64_t>(tuples.size()));
  return static_cast<uint64_t>(tuples.size());
}

}  // namespace meridian::exec
