// SET / SHOW / RESET: run-time parameters of the session (session_settings.h). SET LOCAL has no
// effect outside a transaction block (none exist yet), with PostgreSQL's warning.
#include "main/session_settings.h"
#include "commands/utility_statements.h"

namespace meridian::exec {

namespace {

// Rows computed up front (SHOW), or none with a command tag (SET, RESET).
class ValuesCursor : public QueryCursor {
 public:
  ValuesCursor(std::vector<ColumnInfo> columns, std::vector<Row> rows, std::string tag,
               std::string notice)
      : columns_(std::move(columns)),
        rows_(std::move(rows)),
        tag_(std::move(tag)),
        notice_(std::move(notice)) {}
  const std::vector<ColumnInfo>& columns() const override { return columns_; }
  Result<bool> Fetch(size_t max_rows, size_t, ExecControl&, std::vector<Row>* out) override {
    size_t n = 0;
    while (next_ < rows_.size() && (max_rows == 0 || n < max_rows)) {
      out->push_back(std::move(rows_[next_++]));
      ++n;
    }
    return next_ < rows_.size();
  }
  std::string CommandTag() const override { return tag_; }
  uint64_t RowCount() const override { return rows_.size(); }
  std::string Notice() const override { return notice_; }

 private:
  std::vector<ColumnInfo> columns_;
  std::vector<Row> rows_;
  std::string tag_;
  std::string notice_;
  size_t next_ = 0;
};

}  // namespace

std::vector<ColumnInfo> ShowColumns(const ast::VariableStmt& stmt) {
  if (stmt.all) {
    return {ColumnInfo{"name", Type::Text(), false}, ColumnInfo{"setting", Type::Text(), false},
            ColumnInfo{"description", Type::Text(), false}};
  }
  return {ColumnInfo{SessionSettings::ColumnName(stmt.name), Type::Text(), false}};
}

Result<std::unique_ptr<QueryCursor>> ExecuteVariable(const ast::Statement& stmt,
                                                     SessionSettings* settings) {
  const ast::VariableStmt& v = *stmt.variable;
  auto done = [](std::string tag, std::string notice = "") {
    return std::unique_ptr<QueryCursor>(std::make_unique<ValuesCursor>(
        std::vector<ColumnInfo>{}, std::vector<Row>{}, std::move(tag), std::move(notice)));
  };
  switch (stmt.kind) {
    case ast::StatementKind::kSet: {
      Status st;
      if (v.local) {
        if (!settings->in_transaction()) {
          return done("SET", "SET LOCAL can only be used in transaction blocks");
        }
        st = v.to_default ? settings->ResetLocal(v.name)
                          : settings->SetLocal(v.name, v.values).status();
      } else {
        st = v.to_default ? settings->Reset(v.name) : settings->Set(v.name, v.values).status();
      }
      if (!st.ok()) return st;  // no position, as PostgreSQL
      return done("SET");
    }
    case ast::StatementKind::kReset: {
      Status st = settings->Reset(v.name);
      if (!st.ok()) return st;
      return done("RESET");
    }
    default:
      break;
  }
  std::vector<Row> rows;
  if (v.all) {
    for (std::vector<std::string>& r : settings->ShowAll()) {
      rows.push_back(Row{Value::String(std::move(r[0])), Value::String(std::move(r[1])),
                         Value::String(std::move(r[2]))});
    }
  } else {
    auto value = settings->Show(v.name);
    if (!value.ok()) return value.status();
    rows.push_back(Row{Value::String(std::move(value).value())});
  }
  return std::unique_ptr<QueryCursor>(
      std::make_unique<ValuesCursor>(ShowColumns(v), std::move(rows), "SHOW", ""));
}

}  // namespace meridian::exec
