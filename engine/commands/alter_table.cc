// ALTER TABLE [IF EXISTS] t: ADD [COLUMN] [IF NOT EXISTS], DROP [COLUMN] [IF EXISTS],
// ALTER [COLUMN] SET/DROP DEFAULT and SET/DROP NOT NULL, ADD CONSTRAINT (CHECK, PRIMARY KEY,
// UNIQUE, FOREIGN KEY: the stored rows are validated), DROP CONSTRAINT [IF EXISTS], RENAME
// [COLUMN] a TO b, RENAME CONSTRAINT a TO b, RENAME TO n. The actions edit a copy of the schema in
// order; rows already stored are checked once at the end when an action needs it (NOT NULL, CHECK),
// then the catalog publishes the new schema in one durable write. No row is rewritten: positions
// are stable (catalog/schema.h), an added column reads its constant DEFAULT as the "missing
// value" of older rows, a dropped one stays as a hidden slot. The whole statement holds the
// table's exclusive lock (statements on the table wait, or bind again afterwards).
#include <algorithm>

#include "commands/ddl.h"
#include "execution/constraints.h"
#include "execution/evaluator.h"
#include "execution/modify_table.h"
#include "main/session_settings.h"
#include "meridian/parser/parser.h"

namespace meridian::exec {

namespace {

using Kind = ast::AlterTableCmd::Kind;

void AddNotice(std::string* notice, const std::string& line) {
  if (!notice->empty()) *notice += "\n";
  *notice += line;
}

// IF [NOT] EXISTS: the error's message with ", skipping" as a notice instead of the error.
Status SkipOr(bool missing_ok, Status error, std::string* notice) {
  if (!missing_ok) return error;
  AddNotice(notice, error.message() + ", skipping");
  return Status::Ok();
}

Status NoSuchColumn(const std::string& column, const std::string& table) {
  return Status::Error(sqlstate::kUndefinedColumn,
                       "column \"" + column + "\" of relation \"" + table + "\" does not exist");
}

// Functions whose value changes per call: as a DEFAULT of an added column they would need
// every stored row rewritten (PostgreSQL does that); Meridian refuses them instead.
bool IsVolatile(const ast::Expr& e) {
  static const char* const kVolatile[] = {"random",
                                          "now",
                                          "clock_timestamp",
                                          "nextval",
                                          "gen_random_uuid",
                                          "timeofday",
                                          "setseed",
                                          "statement_timestamp",
                                          "transaction_timestamp"};
  if (e.kind == ast::ExprKind::kFunction) {
    for (const char* f : kVolatile) {
      if (e.name == f) return true;
    }
  }
  for (const ast::ExprPtr& c : e.children) {
    if (c != nullptr && IsVolatile(*c)) return true;
  }
  return false;
}

// Renaming what a view reads: the view stores its query as text, which names it
// (PostgreSQL's views refer to columns by number and follow the rename; Meridian refuses).
Status ViewsReadIt(const std::string& what, const catalog::ViewSchema& view) {
  return Status::NotSupported("cannot rename " + what + " because view \"" + view.name +
                              "\" reads it")
      .WithHint("Drop the view, rename, and create the view again.");
}

// Whether an index reads table column c: as a key column, in a key expression or in its
// predicate.
bool ReadsColumn(const catalog::IndexSchema& x, int c) {
  if (std::find(x.columns.begin(), x.columns.end(), c) != x.columns.end()) return true;
  if (x.compiled == nullptr) return false;
  const std::vector<int> read = x.compiled->Columns();
  return std::find(read.begin(), read.end(), c) != read.end();
}

// One ALTER TABLE statement in progress.
class Alter {
 public:
  Alter(std::shared_ptr<catalog::Table> table, catalog::Catalog* catalog, ExecControl& ctl,
        SessionSettings* settings, std::string* notice)
      : table_(std::move(table)),
        schema_(table_->schema()),
        catalog_(catalog),
        ctl_(ctl),
        settings_(settings),
        notice_(notice),
        binder_(catalog, &no_locks_) {}

  Status Apply(const ast::AlterTableCmd& cmd) {
    switch (cmd.kind) {
      case Kind::kAddColumn:
        return AddColumn(cmd);
      case Kind::kDropColumn:
        return DropColumn(cmd);
      case Kind::kAddConstraint:
        return AddConstraint(cmd);
      case Kind::kDropConstraint:
        return DropConstraint(cmd);
      case Kind::kSetDefault:
      case Kind::kDropDefault:
      case Kind::kSetNotNull:
      case Kind::kDropNotNull:
        return AlterColumn(cmd);
      case Kind::kRenameColumn:
        return RenameColumn(cmd);
      case Kind::kRenameConstraint:
        return RenameConstraint(cmd);
      case Kind::kRenameTable:
        if (auto views = catalog_->DependentViews({table_->id()}); !views.empty()) {
          return ViewsReadIt("table \"" + schema_.name + "\"", *views.front());
        }
        schema_.name = cmd.new_name;
        return Status::Ok();
    }
    return Status::Internal("unknown ALTER TABLE action");
  }

  // Checks the stored rows, publishes the schema, builds the new key indexes.
  Status Finish() {
    MERIDIAN_RETURN_IF_ERROR(ValidateRows());
    for (const NewKey& k : new_keys_) {
      const catalog::ForeignKey* fk = schema_.FindForeignKey(k.name);
      if (fk == nullptr) continue;
      catalog::Table& parent = k.parent == table_ ? *table_ : *k.parent;
      MERIDIAN_RETURN_IF_ERROR(ValidateForeignKey(*table_, *fk, parent, ctl_));
    }
    for (const catalog::IndexSchema& x : new_indexes_) {
      for (int c : x.columns) {
        MERIDIAN_RETURN_IF_ERROR(CheckBtreeKeyType(schema_.columns[c].type, 0));
      }
    }
    catalog::TableSchema before = table_->schema();
    MERIDIAN_RETURN_IF_ERROR(catalog_->AlterTable(table_, schema_, drop_indexes_));
    if (!drop_views_.empty()) MERIDIAN_RETURN_IF_ERROR(catalog_->DropViews(drop_views_));
    for (size_t i = 0; i < new_indexes_.size(); ++i) {
      Status st = catalog_->CreateIndex(table_, new_indexes_[i]);
      if (st.ok()) continue;
      // A duplicate key (or I/O error): the statement changes nothing after all.
      std::vector<std::string> created;
      for (size_t j = 0; j < i; ++j) created.push_back(new_indexes_[j].name);
      for (const std::string& name : created) (void)catalog_->DropIndex(table_, name);
      (void)catalog_->AlterTable(table_, std::move(before), {});
      return st;
    }
    return Status::Ok();
  }

 private:
  int LiveColumn(const std::string& name) const { return schema_.FindColumn(name); }

  Status CheckReferencedTable(const std::vector<ast::ForeignKeyDef>& fks) const {
    for (const ast::ForeignKeyDef& fk : fks) {
      if (Status st = catalog_->CheckSchemaOf(fk.table); !st.ok()) {  // 3F000
        return st.WithPosition(fk.table_loc.position);
      }
      if (fk.table != schema_.name && catalog_->Find(fk.table) == nullptr) {
        return Status::Error(sqlstate::kUndefinedTable,
                             "relation \"" + ast::DisplayName(fk.table) + "\" does not exist")
            .WithPosition(fk.table_loc.position);
      }
    }
    return Status::Ok();
  }

  Status AddColumn(const ast::AlterTableCmd& cmd) {
    const ast::ColumnDef& def = cmd.column;
    if (LiveColumn(def.name) >= 0) {
      return SkipOr(
          cmd.missing_ok,
          Status::Error(sqlstate::kDuplicateColumn, "column \"" + def.name + "\" of relation \"" +
                                                        schema_.name + "\" already exists"),
          notice_);
    }
    MERIDIAN_RETURN_IF_ERROR(CheckReferencedTable(def.references));
    catalog::Column col;
    col.name = def.name;
    MERIDIAN_ASSIGN_OR_RETURN(col.type, catalog::ColumnTypeFromSpec(def.type));
    col.not_null = def.not_null || def.primary_key;
    if (def.default_expr != nullptr) {
      if (IsVolatile(*def.default_expr)) {
        return Status::NotSupported(
                   "ALTER TABLE ADD COLUMN with a volatile DEFAULT is not supported (it would "
                   "rewrite the table)")
            .WithPosition(def.default_expr->loc.position);
      }
      MERIDIAN_RETURN_IF_ERROR(
          SetColumnDefault(*def.default_expr, def.default_text, &col, &binder_));
      // Evaluated once: what every row stored before reads (PostgreSQL's attmissingval).
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr bound,
                                binder_.BindDefault(*col.default_expr, col.type, col.name));
      Row empty;
      ExecContext exec{&ctl_, {}, settings_, catalog_, nullptr};
      MERIDIAN_ASSIGN_OR_RETURN(col.missing, Eval(*bound, EvalContext{&empty, nullptr, &exec}));
    }
    const int position = static_cast<int>(schema_.columns.size());
    schema_.columns.push_back(std::move(col));
    if (schema_.columns.back().not_null) not_null_.push_back(position);
    for (const ast::CheckDef& check : def.checks) MERIDIAN_RETURN_IF_ERROR(AddCheck(check));
    if (def.primary_key) {
      if (!schema_.primary_key.empty()) {
        return Status::Error(
            sqlstate::kInvalidTableDefinition,
            "multiple primary keys for table \"" + schema_.name + "\" are not allowed");
      }
      schema_.primary_key = {position};
      AddKeyIndex(catalog::IndexKind::kPrimaryKey,
                  def.primary_key_name.empty() ? schema_.name + "_pkey" : def.primary_key_name,
                  {position});
    }
    if (def.unique) {
      AddKeyIndex(catalog::IndexKind::kUnique,
                  def.unique_name.empty() ? catalog_->ChooseIndexName(
                                                schema_.name + "_" + def.name + "_key", schema_.nsp)
                                          : def.unique_name,
                  {position});
    }
    for (const ast::ForeignKeyDef& ref : def.references) {
      MERIDIAN_RETURN_IF_ERROR(AddForeignKey(ref, def.name));
    }
    return Status::Ok();
  }

  // A foreign key of the new schema (column: the column a REFERENCES is written on), validated
  // against the stored rows in Finish.
  Status AddForeignKey(const ast::ForeignKeyDef& def, const std::string& column) {
    std::shared_ptr<catalog::Table> parent;
    MERIDIAN_ASSIGN_OR_RETURN(catalog::ForeignKey fk,
                              MakeForeignKey(def, column, schema_, table_, catalog_, &parent));
    new_keys_.push_back({fk.name, parent});
    schema_.foreign_keys.push_back(std::move(fk));
    return Status::Ok();
  }

  void AddKeyIndex(catalog::IndexKind kind, std::string name, std::vector<int> columns) {
    catalog::IndexSchema x;
    x.name = std::move(name);
    x.kind = kind;
    x.unique = true;
    x.descending.assign(columns.size(), false);
    x.columns = std::move(columns);
    new_indexes_.push_back(std::move(x));
  }

  // ADD [CONSTRAINT name] PRIMARY KEY (cols) / UNIQUE (cols): the key index is built in Finish
  // (23505 when stored rows repeat a key); a primary key's columns become NOT NULL (23502 when
  // a stored row has a NULL there), as in PostgreSQL.
  Status AddKey(const ast::AlterTableCmd& cmd) {
    std::vector<int> columns;
    std::string suffix;
    for (const std::string& name : cmd.key_columns) {
      const int c = LiveColumn(name);
      if (c < 0) {
        return Status::Error(sqlstate::kUndefinedColumn,
                             "column \"" + name + "\" named in key does not exist");
      }
      if (std::find(columns.begin(), columns.end(), c) != columns.end()) {
        return Status::Error(sqlstate::kDuplicateColumn,
                             "column \"" + name + "\" appears twice in " +
                                 (cmd.primary_key ? "primary key" : "unique") + " constraint");
      }
      columns.push_back(c);
      suffix += "_" + name;
    }
    if (!cmd.primary_key) {
      AddKeyIndex(catalog::IndexKind::kUnique,
                  cmd.name.empty()
                      ? catalog_->ChooseIndexName(schema_.name + suffix + "_key", schema_.nsp)
                      : cmd.name,
                  std::move(columns));
      return Status::Ok();
    }
    if (!schema_.primary_key.empty()) {
      return Status::Error(
          sqlstate::kInvalidTableDefinition,
          "multiple primary keys for table \"" + schema_.name + "\" are not allowed");
    }
    for (int c : columns) {
      if (!schema_.columns[c].not_null) not_null_.push_back(c);
      schema_.columns[c].not_null = true;
    }
    schema_.primary_key = columns;
    AddKeyIndex(catalog::IndexKind::kPrimaryKey,
                cmd.name.empty() ? schema_.name + "_pkey" : cmd.name, std::move(columns));
    return Status::Ok();
  }

  Status AddCheck(const ast::CheckDef& def) {
    MERIDIAN_ASSIGN_OR_RETURN(catalog::CheckConstraint check,
                              MakeCheckConstraint(def, schema_, &binder_));
    validate_.push_back(check.name);
    schema_.checks.push_back(std::move(check));
    return Status::Ok();
  }

  Status DropColumn(const ast::AlterTableCmd& cmd) {
    const int c = LiveColumn(cmd.name);
    if (c < 0) return SkipOr(cmd.missing_ok, NoSuchColumn(cmd.name, schema_.name), notice_);
    // Views reading the column: 2BP01, or (CASCADE) they go too, as in PostgreSQL.
    const std::pair<uint32_t, int> use{table_->id(), c};
    MERIDIAN_RETURN_IF_ERROR(CheckDependentViews(catalog_, {}, &use,
                                                 "column " + cmd.name + " of table " + schema_.name,
                                                 {}, cmd.cascade, notice_, &drop_views_));
    if (schema_.LiveColumns().size() == 1) {
      // PostgreSQL allows a table without columns; Meridian's statements assume at least one.
      return Status::NotSupported("cannot drop the last column of table \"" + schema_.name +
                                  "\" (tables without columns are not supported)");
    }
    // A column another table's foreign key references stays (PostgreSQL: 2BP01 unless
    // CASCADE, which Meridian does not offer here).
    for (const catalog::Catalog::Reference& ref : catalog_->ReferencesTo(table_->id())) {
      if (ref.table == table_) continue;
      if (std::find(ref.fk.ref_columns.begin(), ref.fk.ref_columns.end(), c) ==
          ref.fk.ref_columns.end()) {
        continue;
      }
      return Status::Error(sqlstate::kDependentObjectsStillExist,
                           "cannot drop column " + cmd.name + " of table " + schema_.name +
                               " because other objects depend on it")
          .WithDetail("constraint " + ref.fk.name + " on table " + ref.table->name() +
                      " depends on column " + cmd.name + " of table " + schema_.name)
          .WithHint("Drop the foreign key constraint first.");
    }
    // Indexes and constraints on the column go with it, as in PostgreSQL (foreign keys too).
    for (const std::shared_ptr<catalog::Index>& index : table_->indexes()) {
      if (ReadsColumn(index->schema(), c)) drop_indexes_.push_back(index->name());
    }
    std::erase_if(schema_.foreign_keys, [&](const catalog::ForeignKey& fk) {
      return std::find(fk.columns.begin(), fk.columns.end(), c) != fk.columns.end() ||
             (fk.ref_table == table_->id() &&
              std::find(fk.ref_columns.begin(), fk.ref_columns.end(), c) != fk.ref_columns.end());
    });
    if (schema_.IsPrimaryKeyColumn(c)) schema_.primary_key.clear();
    std::erase_if(schema_.checks, [&](const catalog::CheckConstraint& check) {
      const std::vector<std::string> cols = ReferencedColumns(*check.expr);
      return std::find(cols.begin(), cols.end(), cmd.name) != cols.end();
    });
    std::erase_if(new_indexes_, [&](const catalog::IndexSchema& x) {
      return std::find(x.columns.begin(), x.columns.end(), c) != x.columns.end();
    });
    std::erase(not_null_, c);
    catalog::Column& col = schema_.columns[c];
    col.dropped = true;
    col.name = "........pg.dropped." + std::to_string(c + 1) + "........";
    col.not_null = false;
    col.default_text.clear();
    col.default_expr = nullptr;
    col.missing = Value::Null();
    return Status::Ok();
  }

  Status AddConstraint(const ast::AlterTableCmd& cmd) {
    if (!cmd.key_columns.empty()) return AddKey(cmd);
    if (cmd.check.expr != nullptr) return AddCheck(cmd.check);
    for (const ast::ForeignKeyDef& def : cmd.column.references) {
      MERIDIAN_RETURN_IF_ERROR(AddForeignKey(def, ""));
    }
    return Status::Ok();
  }

  Status DropConstraint(const ast::AlterTableCmd& cmd) {
    auto it = std::find_if(schema_.checks.begin(), schema_.checks.end(),
                           [&](const catalog::CheckConstraint& c) { return c.name == cmd.name; });
    if (it != schema_.checks.end()) {
      std::erase(validate_, cmd.name);
      schema_.checks.erase(it);
      return Status::Ok();
    }
    if (std::erase_if(schema_.foreign_keys,
                      [&](const catalog::ForeignKey& fk) { return fk.name == cmd.name; }) > 0) {
      std::erase_if(new_keys_, [&](const NewKey& k) { return k.name == cmd.name; });
      return Status::Ok();
    }
    for (const std::shared_ptr<catalog::Index>& index : table_->indexes()) {
      const catalog::IndexSchema& x = index->schema();
      if (x.name != cmd.name || !x.IsConstraint()) continue;
      MERIDIAN_RETURN_IF_ERROR(CheckKeyUnused(x));
      if (std::find(drop_indexes_.begin(), drop_indexes_.end(), x.name) != drop_indexes_.end()) {
        break;  // dropped with its column by an earlier action
      }
      drop_indexes_.push_back(x.name);
      if (x.kind == catalog::IndexKind::kPrimaryKey) schema_.primary_key.clear();
      return Status::Ok();
    }
    return SkipOr(
        cmd.missing_ok,
        Status::Error(sqlstate::kUndefinedObject, "constraint \"" + cmd.name + "\" of relation \"" +
                                                      schema_.name + "\" does not exist"),
        notice_);
  }

  // A PRIMARY KEY or UNIQUE constraint that a foreign key of another table relies on stays
  // (PostgreSQL: 2BP01 unless CASCADE, which Meridian does not offer here).
  Status CheckKeyUnused(const catalog::IndexSchema& x) const {
    for (const catalog::Catalog::Reference& ref : catalog_->ReferencesTo(table_->id())) {
      if (ref.table == table_) continue;
      const std::vector<int>& cols = ref.fk.ref_columns;
      if (cols.size() != x.columns.size() ||
          !std::is_permutation(cols.begin(), cols.end(), x.columns.begin())) {
        continue;
      }
      return Status::Error(sqlstate::kDependentObjectsStillExist,
                           "cannot drop constraint " + x.name + " on table " + schema_.name +
                               " because other objects depend on it")
          .WithDetail("constraint " + ref.fk.name + " on table " + ref.table->name() +
                      " depends on index " + x.name)
          .WithHint("Drop the foreign key constraint first.");
    }
    return Status::Ok();
  }

  Status AlterColumn(const ast::AlterTableCmd& cmd) {
    const int c = LiveColumn(cmd.name);
    if (c < 0) return NoSuchColumn(cmd.name, schema_.name);
    catalog::Column& col = schema_.columns[c];
    switch (cmd.kind) {
      case Kind::kSetDefault:
        return SetColumnDefault(*cmd.default_expr, cmd.default_text, &col, &binder_);
      case Kind::kDropDefault:
        col.default_text.clear();
        col.default_expr = nullptr;
        return Status::Ok();
      case Kind::kSetNotNull:
        if (!col.not_null) not_null_.push_back(c);
        col.not_null = true;
        return Status::Ok();
      default:  // kDropNotNull
        if (schema_.IsPrimaryKeyColumn(c)) {
          return Status::Error(sqlstate::kInvalidTableDefinition,
                               "column \"" + cmd.name + "\" is in a primary key");
        }
        col.not_null = false;
        std::erase(not_null_, c);
        return Status::Ok();
    }
  }

  Status RenameColumn(const ast::AlterTableCmd& cmd) {
    const int c = LiveColumn(cmd.name);
    if (c < 0) return NoSuchColumn(cmd.name, schema_.name);
    const std::pair<uint32_t, int> use{table_->id(), c};
    if (auto views = catalog_->DependentViews({}, &use); !views.empty()) {
      return ViewsReadIt("column \"" + cmd.name + "\" of table \"" + schema_.name + "\"",
                         *views.front());
    }
    for (const std::shared_ptr<catalog::Index>& index : table_->indexes()) {
      // The index stores its expressions as SQL text naming the column.
      if (index->schema().NeedsEval() && ReadsColumn(index->schema(), c)) {
        return Status::NotSupported("cannot rename column \"" + cmd.name + "\" because index \"" +
                                    index->name() + "\" uses it in an expression or predicate")
            .WithHint("Drop the index, rename, and create the index again.");
      }
    }
    if (LiveColumn(cmd.new_name) >= 0) {
      return Status::Error(
          sqlstate::kDuplicateColumn,
          "column \"" + cmd.new_name + "\" of relation \"" + schema_.name + "\" already exists");
    }
    schema_.columns[c].name = cmd.new_name;
    for (catalog::CheckConstraint& check : schema_.checks) {
      const std::vector<std::string> cols = ReferencedColumns(*check.expr);
      if (std::find(cols.begin(), cols.end(), cmd.name) == cols.end()) continue;
      MERIDIAN_ASSIGN_OR_RETURN(check.text, RenameColumnInText(check.text, cmd.name, cmd.new_name));
      MERIDIAN_ASSIGN_OR_RETURN(ast::ExprPtr parsed, parser::ParseExpression(check.text));
      check.expr = std::shared_ptr<const ast::Expr>(std::move(parsed));
    }
    return Status::Ok();
  }

  Status RenameConstraint(const ast::AlterTableCmd& cmd) {
    for (catalog::CheckConstraint& check : schema_.checks) {
      if (check.name != cmd.name) continue;
      if (schema_.FindCheck(cmd.new_name) != nullptr) {
        return Status::Error(sqlstate::kDuplicateObject, "constraint \"" + cmd.new_name +
                                                             "\" for relation \"" + schema_.name +
                                                             "\" already exists");
      }
      check.name = cmd.new_name;
      return Status::Ok();
    }
    for (catalog::ForeignKey& fk : schema_.foreign_keys) {
      if (fk.name != cmd.name) continue;
      if (schema_.FindCheck(cmd.new_name) != nullptr ||
          schema_.FindForeignKey(cmd.new_name) != nullptr) {
        return Status::Error(sqlstate::kDuplicateObject, "constraint \"" + cmd.new_name +
                                                             "\" for relation \"" + schema_.name +
                                                             "\" already exists");
      }
      fk.name = cmd.new_name;
      return Status::Ok();
    }
    for (const std::shared_ptr<catalog::Index>& index : table_->indexes()) {
      if (index->name() == cmd.name && index->schema().IsConstraint()) {
        return Status::NotSupported(
            "renaming a PRIMARY KEY or UNIQUE constraint is not supported "
            "yet");
      }
    }
    return Status::Error(
        sqlstate::kUndefinedObject,
        "constraint \"" + cmd.name + "\" for table \"" + schema_.name + "\" does not exist");
  }

  // NOT NULL and CHECK constraints added by this statement hold for every stored row that is
  // not dead (rows of running transactions included: they may still commit).
  Status ValidateRows() {
    if (not_null_.empty() && validate_.empty()) return Status::Ok();
    std::vector<BoundCheck> checks;
    for (const catalog::CheckConstraint& c : schema_.checks) {
      if (std::find(validate_.begin(), validate_.end(), c.name) == validate_.end()) continue;
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e, binder_.BindCheck(*c.expr, schema_, table_));
      checks.push_back({c.name, std::move(e)});
    }
    ExecContext exec{&ctl_, {}, settings_, catalog_, nullptr};
    int until_check = kCheckInterval;
    return table_->ForEachVersion([&](storage::Rid, const storage::TupleHeader& h,
                                      const Row& stored) -> Status {
      if (--until_check <= 0) {
        MERIDIAN_RETURN_IF_ERROR(ctl_.Check());
        until_check = kCheckInterval;
      }
      if (table_->IsDeadVersion(h)) return Status::Ok();
      Row row = stored;
      for (size_t c = row.size(); c < schema_.columns.size(); ++c) {
        row.push_back(schema_.columns[c].missing);
      }
      for (int c : not_null_) {
        if (!row[c].IsNull()) continue;
        return Status::Error(sqlstate::kNotNullViolation, "column \"" + schema_.columns[c].name +
                                                              "\" of relation \"" + schema_.name +
                                                              "\" contains null values");
      }
      EvalContext ctx{&row, nullptr, &exec};
      for (const BoundCheck& check : checks) {
        MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*check.expr, ctx));
        if (v.IsNull() || v.AsBool()) continue;
        return Status::Error(sqlstate::kCheckViolation, "check constraint \"" + check.name +
                                                            "\" of relation \"" + schema_.name +
                                                            "\" is violated by some row");
      }
      return Status::Ok();
    });
  }

  std::shared_ptr<catalog::Table> table_;
  catalog::TableSchema schema_;  // the new schema, being edited
  catalog::Catalog* catalog_;
  ExecControl& ctl_;
  SessionSettings* settings_;
  std::string* notice_;
  catalog::LockSet no_locks_;
  Binder binder_;
  std::vector<std::string> drop_indexes_;
  std::vector<uint32_t> drop_views_;  // DROP COLUMN ... CASCADE: views reading the column
  std::vector<catalog::IndexSchema> new_indexes_;
  std::vector<int> not_null_;          // columns whose stored values must not be NULL
  std::vector<std::string> validate_;  // CHECKs added here, to validate on stored rows
  struct NewKey {
    std::string name;
    std::shared_ptr<catalog::Table> parent;
  };
  std::vector<NewKey> new_keys_;  // foreign keys added here, to validate on stored rows
};

}  // namespace

Status ExecuteAlterTable(const ast::AlterTableStmt& stmt, catalog::Catalog* catalog,
                         ExecControl& ctl, SessionSettings* settings, std::string* notice) {
  std::shared_ptr<catalog::Table> table = catalog->Find(stmt.table);
  if (table == nullptr &&
      catalog->FindView(stmt.table, settings != nullptr ? settings->session_id() : 0) != nullptr) {
    return Status::Error(sqlstate::kWrongObjectType,
                         "\"" + ast::DisplayName(stmt.table) + "\" is not a table")
        .WithPosition(stmt.table_loc.position);
  }
  if (table == nullptr) {
    if (stmt.if_exists) {
      AddNotice(notice,
                "relation \"" + ast::DisplayName(stmt.table) + "\" does not exist, skipping");
      return Status::Ok();
    }
    return Status::Error(sqlstate::kUndefinedTable,
                         "relation \"" + ast::DisplayName(stmt.table) + "\" does not exist")
        .WithPosition(stmt.table_loc.position);
  }
  catalog::LockSet lock;
  lock.Add(table, catalog::LockMode::kExclusive);
  // Tables a new foreign key references: read (validation) under their shared locks.
  for (const ast::AlterTableCmd& cmd : stmt.cmds) {
    if (cmd.kind != Kind::kAddConstraint && cmd.kind != Kind::kAddColumn) continue;
    for (const ast::ForeignKeyDef& def : cmd.column.references) {
      std::shared_ptr<catalog::Table> parent = catalog->Find(def.table);
      if (parent != nullptr && parent != table) lock.Add(parent, catalog::LockMode::kShared);
    }
  }
  MERIDIAN_RETURN_IF_ERROR(lock.AcquireAll(&ctl));
  MERIDIAN_RETURN_IF_ERROR(table->CheckUsable());
  Alter alter(table, catalog, ctl, settings, notice);
  for (const ast::AlterTableCmd& cmd : stmt.cmds) MERIDIAN_RETURN_IF_ERROR(alter.Apply(cmd));
  return alter.Finish();
}

}  // namespace meridian::exec
