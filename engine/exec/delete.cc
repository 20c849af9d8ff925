// DELETE executor: collects the matching rids first, then deletes them, re-inserting the
// deleted tuples if a write fails midway. See modify_table.h.
#include "catalog/key_encoding.h"
#include "exec/evaluator.h"
#include "exec/modify_table.h"
#include "storage/tuple.h"

namespace meridian::exec {

Result<uint64_t> ExecuteDelete(BoundDelete& b, ExecContext* exec) {
  catalog::Table& table = *b.table;
  MERIDIAN_RETURN_IF_ERROR(table.CheckUsable());
  struct Victim {
    storage::Rid rid;
    std::string tuple;
    std::string key;
  };
  std::vector<Victim> victims;
  storage::HeapFile::Cursor cursor = table.heap()->Scan();
  storage::Rid rid;
  std::string bytes;
  Row row;
  EvalContext ctx{&row, nullptr, exec};
  int until_check = kCheckInterval;
  const bool decode = b.where != nullptr || table.has_primary_key();
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor.Next(&rid, &bytes));
    if (!more) break;
    if (--until_check <= 0) {
      MERIDIAN_RETURN_IF_ERROR(exec->ctl->Check());
      until_check = kCheckInterval;
    }
    if (decode) MERIDIAN_RETURN_IF_ERROR(storage::DecodeTuple(bytes, table.types(), &row));
    if (b.where != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*b.where, ctx));
      if (!pass) continue;
    }
    std::string key;
    if (table.has_primary_key()) key = catalog::EncodeKey(table.KeyValues(row));
    victims.push_back({rid, bytes, std::move(key)});
  }
  for (size_t i = 0; i < victims.size(); ++i) {
    Status st = table.heap()->Delete(victims[i].rid);
    if (!st.ok()) {
      for (size_t j = 0; j < i; ++j) (void)table.heap()->Insert(victims[j].tuple);
      return st;
    }
  }
  if (table.has_primary_key()) {
    for (const Victim& v : victims) table.pk().Erase(v.key);
  }
  return static_cast<uint64_t>(victims.size());
}

}  // namespace meridian::exec
