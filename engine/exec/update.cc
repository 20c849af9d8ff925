// UPDATE executor: collects every matching row (through the cheapest access path) and its new
// version before writing anything (no Halloween problem), checks NOT NULL and the unique
// indexes over the whole batch, then applies heap and index changes, restoring the old state
// if a write fails. See modify_table.h.
#include "exec/evaluator.h"
#include "exec/modify_table.h"

namespace meridian::exec {

Result<uint64_t> ExecuteUpdate(BoundUpdate& b, ExecContext* exec) {
  catalog::Table& table = *b.table;
  MERIDIAN_RETURN_IF_ERROR(table.CheckUsable());

  // Phase 1: find the rows and compute their new versions.
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<MatchedRow> matches,
                            CollectMatches(b.table, std::move(b.where), exec));
  std::vector<Row> new_rows;
  std::vector<std::string> new_tuples;
  new_rows.reserve(matches.size());
  for (MatchedRow& m : matches) {
    EvalContext ctx{&m.row, nullptr, exec};
    Row new_row = m.row;
    for (const BoundUpdate::Assignment& a : b.assignments) {
      MERIDIAN_ASSIGN_OR_RETURN(new_row[a.column], Eval(*a.value, ctx));
    }
    MERIDIAN_RETURN_IF_ERROR(CheckNotNull(table, new_row));
    MERIDIAN_ASSIGN_OR_RETURN(std::string tuple, EncodeRow(table, new_row));
    new_tuples.push_back(std::move(tuple));
    new_rows.push_back(std::move(new_row));
  }
  std::vector<KeyChange> changes(matches.size());
  for (size_t i = 0; i < matches.size(); ++i) {
    changes[i] = {&new_rows[i], &matches[i].row, matches[i].rid};
  }
  MERIDIAN_RETURN_IF_ERROR(CheckUniqueIndexes(table, changes));

  // Phase 2: apply. Index entries of every changed row are removed first, so a key that one
  // row leaves and another takes never meets itself; then heap updates and new entries.
  for (size_t i = 0; i < matches.size(); ++i) {
    Status st = EraseIndexEntries(table, matches[i].row, matches[i].rid);
    if (!st.ok()) {
      for (size_t j = 0; j < i; ++j)
        (void)InsertIndexEntries(table, matches[j].row, matches[j].rid);
      return st;
    }
  }
  std::vector<storage::Rid> rids(matches.size());  // where each row is now
  for (size_t i = 0; i < matches.size(); ++i) rids[i] = matches[i].rid;
  for (size_t i = 0; i < matches.size(); ++i) {
    auto r = table.heap()->Update(matches[i].rid, new_tuples[i]);
    Status st = r.status();
    if (st.ok()) {
      rids[i] = *r;
      st = InsertIndexEntries(table, new_rows[i], *r);
      if (!st.ok()) ++i;  // row i's heap change is undone below with the earlier ones
    }
    if (!st.ok()) {
      // Undo (best effort; this path means the disk is failing): rows before i get their
      // old tuple and entries back; rows from i on only need their old entries.
      const size_t applied = i;
      for (size_t j = 0; j < matches.size(); ++j) {
        if (j < applied) {
          if (j + 1 < applied || !r.ok()) (void)EraseIndexEntries(table, new_rows[j], rids[j]);
          auto old_tuple = EncodeRow(table, matches[j].row);
          if (!old_tuple.ok()) continue;
          auto back = table.heap()->Update(rids[j], *old_tuple);
          if (back.ok()) rids[j] = *back;
        }
        (void)InsertIndexEntries(table, matches[j].row, rids[j]);
      }
      return st;
    }
  }
  table.NoteChanges(static_cast<int64_t>(matches.size()));
  return static_cast<uint64_t>(matches.size());
}

}  // namespace meridian::exec
