// DELETE executor: collects the matching rows first (through the cheapest access path), then
// deletes them and their index entries, re-inserting what was deleted if a write fails
// midway. See modify_table.h.
#include "exec/modify_table.h"

namespace meridian::exec {

Result<uint64_t> ExecuteDelete(BoundDelete& b, ExecContext* exec) {
  catalog::Table& table = *b.table;
  MERIDIAN_RETURN_IF_ERROR(table.CheckUsable());
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<MatchedRow> victims,
                            CollectMatches(b.table, std::move(b.where), exec));
  for (size_t i = 0; i < victims.size(); ++i) {
    Status st = EraseIndexEntries(table, victims[i].row, victims[i].rid);
    if (st.ok()) {
      st = table.heap()->Delete(victims[i].rid);
      if (!st.ok()) (void)InsertIndexEntries(table, victims[i].row, victims[i].rid);
    }
    if (!st.ok()) {
      for (size_t j = 0; j < i; ++j) {
        auto tuple = EncodeRow(table, victims[j].row);
        if (!tuple.ok()) continue;
        auto rid = table.heap()->Insert(*tuple);
        if (rid.ok()) (void)InsertIndexEntries(table, victims[j].row, *rid);
      }
      return st;
    }
  }
  table.AdjustRows(-static_cast<int64_t>(victims.size()));
  table.NoteChanges(static_cast<int64_t>(victims.size()));
  return static_cast<uint64_t>(victims.size());
}

}  // namespace meridian::exec
