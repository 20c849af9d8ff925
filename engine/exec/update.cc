// UPDATE executor: collects (rid, old tuple, new tuple) for every matching row before writing
// anything (no Halloween problem), checks NOT NULL and the primary key over the whole batch,
// then applies the updates, restoring the old tuples if a write fails. See modify_table.h.
#include <unordered_set>

#include "catalog/key_encoding.h"
#include "exec/evaluator.h"
#include "exec/modify_table.h"
#include "storage/tuple.h"

namespace meridian::exec {

Result<uint64_t> ExecuteUpdate(BoundUpdate& b, ExecContext* exec) {
  catalog::Table& table = *b.table;
  MERIDIAN_RETURN_IF_ERROR(table.CheckUsable());
  bool key_changes = false;
  for (const BoundUpdate::Assignment& a : b.assignments) {
    if (table.schema().IsPrimaryKeyColumn(a.column)) key_changes = true;
  }

  struct Change {
    storage::Rid rid;
    std::string old_tuple;
    std::string new_tuple;
    std::string new_key;  // when the statement changes key columns
  };
  std::vector<Change> changes;
  std::unordered_set<std::string> removed_keys, added_keys;

  // Phase 1: scan everything first, then write.
  storage::HeapFile::Cursor cursor = table.heap()->Scan();
  storage::Rid rid;
  std::string bytes;
  Row row;
  EvalContext ctx{&row, nullptr, exec};
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor.Next(&rid, &bytes));
    if (!more) break;
    if (--until_check <= 0) {
      MERIDIAN_RETURN_IF_ERROR(exec->ctl->Check());
      until_check = kCheckInterval;
    }
    MERIDIAN_RETURN_IF_ERROR(storage::DecodeTuple(bytes, table.types(), &row));
    if (b.where != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*b.where, ctx));
      if (!pass) continue;
    }
    Row new_row = row;
    for (const BoundUpdate::Assignment& a : b.assignments) {
      MERIDIAN_ASSIGN_OR_RETURN(new_row[a.column], Eval(*a.value, ctx));
    }
    MERIDIAN_RETURN_IF_ERROR(CheckNotNull(table, new_row));
    std::string nk;
    if (key_changes) {
      removed_keys.insert(catalog::EncodeKey(table.KeyValues(row)));
      nk = catalog::EncodeKey(table.KeyValues(new_row));
      if (!added_keys.insert(nk).second) return DuplicateKeyError(table, new_row);
    }
    MERIDIAN_ASSIGN_OR_RETURN(std::string new_tuple, EncodeRow(table, new_row));
    changes.push_back({rid, bytes, std::move(new_tuple), std::move(nk)});
  }
  if (key_changes) {
    // A new key may reuse a key this statement frees, but not one that stays.
    for (const Change& c : changes) {
      if (table.pk().Contains(c.new_key) && removed_keys.count(c.new_key) == 0) {
        Row nr;
        MERIDIAN_RETURN_IF_ERROR(storage::DecodeTuple(c.new_tuple, table.types(), &nr));
        return DuplicateKeyError(table, nr);
      }
    }
  }

  // Phase 2: apply, restoring old tuples if a write fails.
  std::vector<storage::Rid> new_rids;
  new_rids.reserve(changes.size());
  for (const Change& c : changes) {
    auto r = table.heap()->Update(c.rid, c.new_tuple);
    if (!r.ok()) {
      for (size_t i = 0; i < new_rids.size(); ++i) {
        (void)table.heap()->Update(new_rids[i], changes[i].old_tuple);
      }
      return r.status();
    }
    new_rids.push_back(*r);
  }
  if (key_changes) {
    for (const std::string& k : removed_keys) table.pk().Erase(k);
    for (const std::string& k : added_keys) table.pk().Insert(k);
  }
  return static_cast<uint64_t>(changes.size());
}

}  // namespace meridian::exec
