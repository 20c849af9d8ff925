// Identity columns in INSERT and UPDATE: GENERATED ALWAYS refuses an explicit value (428C9)
// unless INSERT says OVERRIDING SYSTEM VALUE; OVERRIDING USER VALUE replaces the given values
// of identity columns by their defaults (the sequence).
#include "binder/binder.h"
#include "function/sequence.h"

namespace meridian::exec {

Status Binder::CheckIdentityTargets(const ast::InsertStmt& stmt, const std::vector<int>& listed,
                                    BoundInsert* out) {
  const catalog::TableSchema& schema = out->table->schema();
  for (size_t c = 0; c < out->column_source.size(); ++c) {
    const int source = out->column_source[c];
    if (source < 0) continue;
    const char identity = ColumnIdentity(*catalog_, out->table->id(), static_cast<int>(c));
    if (identity == 0) continue;
    const catalog::Column& col = schema.columns[c];
    if (stmt.overriding == 'u') {
      // The given value is ignored: the column takes its default.
      out->column_source[c] = -1;
      MERIDIAN_ASSIGN_OR_RETURN(out->defaults[c],
                                BindDefault(*col.default_expr, col.type, col.name));
      continue;
    }
    if (identity != 'a' || stmt.overriding == 's') continue;
    bool all_default = stmt.select == nullptr && !stmt.values.empty();
    const size_t at = static_cast<size_t>(listed[source]);
    for (const auto& row : stmt.values) {
      if (at < row.size() && row[at] != nullptr) all_default = false;
    }
    if (all_default) continue;
    return Status::Error(sqlstate::kGeneratedAlways,
                         "cannot insert a non-DEFAULT value into column \"" + col.name + "\"")
        .WithDetail("Column \"" + col.name +
                    "\" is an identity column defined as GENERATED ALWAYS.")
        .WithHint("Use OVERRIDING SYSTEM VALUE to override.");
  }
  return Status::Ok();
}

Status Binder::CheckIdentityAssignments(const std::vector<ast::Assignment>& list,
                                        const catalog::Table& table) {
  for (size_t i = 0; i < list.size(); ++i) {
    const int c = table.schema().FindColumn(list[i].column);
    if (c < 0 || list[i].value == nullptr) continue;  // SET col = DEFAULT
    if (ColumnIdentity(*catalog_, table.id(), c) != 'a') continue;
    const std::string& name = table.schema().columns[c].name;
    return Status::Error(sqlstate::kGeneratedAlways,
                         "column \"" + name + "\" can only be updated to DEFAULT")
        .WithDetail("Column \"" + name + "\" is an identity column defined as GENERATED ALWAYS.")
        .WithPosition(list[i].loc.position);
  }
  return Status::Ok();
}

}  // namespace meridian::exec
