// CREATE TABLE: validates columns, types, DEFAULTs and CHECKs (bound and type-checked now,
// stored as SQL text and re-parsed at open), the primary key and UNIQUE constraints, then creates
// the table in the catalog with one unique B+tree index per key constraint, then its foreign
// keys (foreign_key_ddl.cc; the table may reference itself); a failure drops it again.
#include <algorithm>

#include "binder/binder.h"
#include "commands/ddl.h"
#include "execution/constraints.h"
#include "function/sequence.h"
#include "meridian/parser/parser.h"

namespace meridian::exec {

namespace {

// The sequences of a CREATE TABLE's SERIAL and identity columns: dropped again unless Own
// gives them to the new table.
class OwnedSequences {
 public:
  explicit OwnedSequences(catalog::Catalog* catalog) : catalog_(catalog) {}
  ~OwnedSequences() {
    if (owned_ || seqs_.empty()) return;
    std::vector<uint32_t> ids;
    for (const Entry& e : seqs_) ids.push_back(e.seq->schema()->id);
    (void)catalog_->DropSequences(ids);
  }
  void Add(std::shared_ptr<catalog::Sequence> seq, int column, char identity) {
    seqs_.push_back({std::move(seq), column, identity});
  }
  Status Own(uint32_t table) {
    for (const Entry& e : seqs_) {
      MERIDIAN_RETURN_IF_ERROR(SetSequenceOwner(e.seq, table, e.column, e.identity, catalog_));
    }
    owned_ = true;  // DROP TABLE drops them from now on
    return Status::Ok();
  }

 private:
  struct Entry {
    std::shared_ptr<catalog::Sequence> seq;
    int column;
    char identity;
  };
  catalog::Catalog* catalog_;
  std::vector<Entry> seqs_;
  bool owned_ = false;
};

}  // namespace

Status ExecuteCreateTable(const ast::CreateTableStmt& stmt, catalog::Catalog* catalog,
                          std::string* notice) {
  // The schema-qualified name (catalog/namespace.h) and the bare one for messages.
  MERIDIAN_ASSIGN_OR_RETURN(const std::string qualified,
                            catalog->CreationName(stmt.table, stmt.temp));
  std::string in_schema, bare;
  ast::SplitName(qualified, &in_schema, &bare);
  if (catalog->Find(qualified) != nullptr) {
    if (stmt.if_not_exists) {
      *notice = "relation \"" + bare + "\" already exists, skipping";
      return Status::Ok();
    }
    return Status::Error(sqlstate::kDuplicateTable, "relation \"" + bare + "\" already exists");
  }
  // SERIAL and identity columns get their sequences first (their DEFAULTs name them); they
  // are owned by the table once it exists, and dropped again when anything fails.
  OwnedSequences sequences{catalog};
  catalog::TableSchema schema;
  schema.name = bare;  // CreateTable gets the qualified name (derived names use the bare one)
  schema.nsp = in_schema;
  if (stmt.temp) {
    schema.temp_owner = catalog::CurrentSearchPath().session;
    schema.on_commit = static_cast<int>(stmt.on_commit);
  }
  std::string pk_name = stmt.primary_key_name;
  catalog::LockSet no_locks;
  Binder binder(catalog, &no_locks);
  for (const ast::ColumnDef& def : stmt.columns) {
    if (schema.FindColumn(def.name) >= 0) {
      return Status::Error(sqlstate::kDuplicateColumn,
                           "column \"" + def.name + "\" specified more than once")
          .WithPosition(def.loc.position);
    }
    catalog::Column col;
    col.name = def.name;
    MERIDIAN_ASSIGN_OR_RETURN(col.type, catalog::ColumnTypeFromSpec(def.type));
    col.not_null = def.not_null || def.primary_key;
    if (def.serial || def.identity != 0) {
      std::string text;
      MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<catalog::Sequence> seq,
                                CreateColumnSequence(qualified, def, col.type.id, catalog, &text));
      sequences.Add(std::move(seq), static_cast<int>(schema.columns.size()), def.identity);
      MERIDIAN_ASSIGN_OR_RETURN(ast::ExprPtr expr, parser::ParseExpression(text));
      MERIDIAN_RETURN_IF_ERROR(SetColumnDefault(*expr, text, &col, &binder));
    } else if (def.default_expr != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(
          SetColumnDefault(*def.default_expr, def.default_text, &col, &binder));
    }
    if (def.primary_key) {
      if (!def.primary_key_name.empty()) pk_name = def.primary_key_name;
      if (!schema.primary_key.empty()) {
        return Status::Error(sqlstate::kInvalidTableDefinition,
                             "multiple primary keys for table \"" + bare + "\" are not allowed")
            .WithPosition(def.loc.position);
      }
      schema.primary_key.push_back(static_cast<int>(schema.columns.size()));
    }
    schema.columns.push_back(std::move(col));
  }
  if (!stmt.primary_key.empty()) {
    if (!schema.primary_key.empty()) {
      return Status::Error(sqlstate::kInvalidTableDefinition,
                           "multiple primary keys for table \"" + bare + "\" are not allowed")
          .WithPosition(stmt.primary_key_loc.position);
    }
    for (const std::string& name : stmt.primary_key) {
      int c = schema.FindColumn(name);
      if (c < 0) {
        return Status::Error(sqlstate::kUndefinedColumn,
                             "column \"" + name + "\" named in key does not exist")
            .WithPosition(stmt.primary_key_loc.position);
      }
      if (schema.IsPrimaryKeyColumn(c)) {
        return Status::Error(sqlstate::kDuplicateColumn,
                             "column \"" + name + "\" appears twice in primary key constraint")
            .WithPosition(stmt.primary_key_loc.position);
      }
      schema.primary_key.push_back(c);
      schema.columns[c].not_null = true;
    }
  }
  // CHECK constraints (column ones first), bound over the complete row; foreign keys (column
  // ones first, as PostgreSQL orders them) once the table and its keys exist (it may
  // reference itself); their referenced tables are checked here already.
  std::vector<std::pair<const ast::ForeignKeyDef*, std::string>> references;
  std::vector<const ast::CheckDef*> checks;
  for (const ast::ColumnDef& def : stmt.columns) {
    for (const ast::CheckDef& c : def.checks) checks.push_back(&c);
    for (const ast::ForeignKeyDef& fk : def.references) references.emplace_back(&fk, def.name);
  }
  for (const ast::ForeignKeyDef& fk : stmt.foreign_keys) references.emplace_back(&fk, "");
  for (const ast::CheckDef& c : stmt.checks) checks.push_back(&c);
  for (const ast::CheckDef* def : checks) {
    MERIDIAN_ASSIGN_OR_RETURN(catalog::CheckConstraint check,
                              MakeCheckConstraint(*def, schema, &binder));
    schema.checks.push_back(std::move(check));
  }
  for (const auto& [fk, column] : references) {
    if (Status st = catalog->CheckSchemaOf(fk->table); !st.ok()) {  // 3F000
      return st.WithPosition(fk->table_loc.position);
    }
    if (fk->table != stmt.table && fk->table != qualified && catalog->Find(fk->table) == nullptr) {
      return Status::Error(sqlstate::kUndefinedTable,
                           "relation \"" + ast::DisplayName(fk->table) + "\" does not exist")
          .WithPosition(fk->table_loc.position);
    }
  }
  // Key constraints, in PostgreSQL's order: the primary key, then UNIQUE as written.
  std::vector<catalog::IndexSchema> keys;
  if (!schema.primary_key.empty()) {
    catalog::IndexSchema pk;
    pk.name = pk_name.empty() ? schema.PrimaryKeyName() : pk_name;
    pk.kind = catalog::IndexKind::kPrimaryKey;
    pk.unique = true;
    pk.columns = schema.primary_key;
    keys.push_back(std::move(pk));
  }
  std::vector<ast::CreateTableStmt::UniqueKey> uniques;
  for (const ast::ColumnDef& def : stmt.columns) {
    if (def.unique) uniques.push_back({{def.name}, def.unique_name, def.loc});
  }
  for (const auto& u : stmt.unique_keys) uniques.push_back(u);
  for (const auto& u : uniques) {
    catalog::IndexSchema key;
    key.kind = catalog::IndexKind::kUnique;
    key.unique = true;
    std::string base = bare;
    for (const std::string& name : u.columns) {
      int c = schema.FindColumn(name);
      if (c < 0) {
        return Status::Error(sqlstate::kUndefinedColumn,
                             "column \"" + name + "\" named in key does not exist")
            .WithPosition(u.loc.position);
      }
      if (std::find(key.columns.begin(), key.columns.end(), c) != key.columns.end()) {
        return Status::Error(sqlstate::kDuplicateColumn,
                             "column \"" + name + "\" appears twice in unique constraint")
            .WithPosition(u.loc.position);
      }
      key.columns.push_back(c);
      base += "_" + name;
    }
    key.name = u.name.empty() ? base + "_key" : u.name;
    keys.push_back(std::move(key));
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    for (int c : keys[i].columns) {
      MERIDIAN_RETURN_IF_ERROR(CheckBtreeKeyType(schema.columns[c].type, 0));
    }
    keys[i].descending.assign(keys[i].columns.size(), false);
    for (size_t j = 0; j < i; ++j) {
      if (keys[j].name == keys[i].name) {
        return Status::Error(sqlstate::kDuplicateTable,
                             "relation \"" + keys[i].name + "\" already exists");
      }
    }
  }
  schema.name = qualified;
  auto created = catalog->CreateTable(std::move(schema));
  if (!created.ok()) {
    if (stmt.if_not_exists && created.status().sqlstate() == sqlstate::kDuplicateTable) {
      *notice = "relation \"" + bare + "\" already exists, skipping";
      return Status::Ok();
    }
    return created.status();
  }
  std::shared_ptr<catalog::Table> table = std::move(created).value();
  if (Status st = sequences.Own(table->id()); !st.ok()) {
    (void)catalog->DropTable(table);
    return st;
  }
  if (keys.empty() && references.empty()) return Status::Ok();
  // The table is already visible: hold it exclusively until its key indexes and foreign keys
  // exist (with the tables it references, shared).
  catalog::LockSet lock;
  lock.Add(table, catalog::LockMode::kExclusive);
  for (const auto& [fk, column] : references) {
    if (std::shared_ptr<catalog::Table> parent = catalog->Find(fk->table);
        parent != nullptr && parent != table) {
      lock.Add(parent, catalog::LockMode::kShared);
    }
  }
  MERIDIAN_RETURN_IF_ERROR(lock.AcquireAll(nullptr));
  for (catalog::IndexSchema& key : keys) {
    Status st = catalog->CreateIndex(table, std::move(key));
    if (!st.ok()) {
      (void)catalog->DropTable(table);
      return st;
    }
  }
  if (references.empty()) return Status::Ok();
  catalog::TableSchema with_keys = table->schema();
  for (const auto& [fk, column] : references) {
    Result<catalog::ForeignKey> made =
        MakeForeignKey(*fk, column, with_keys, table, catalog, nullptr);
    if (!made.ok()) {
      (void)catalog->DropTable(table);
      return made.status();
    }
    with_keys.foreign_keys.push_back(std::move(made).value());
  }
  if (Status st = catalog->AlterTable(table, std::move(with_keys), {}); !st.ok()) {
    (void)catalog->DropTable(table);
    return st;
  }
  return Status::Ok();
}

}  // namespace meridian::exec
