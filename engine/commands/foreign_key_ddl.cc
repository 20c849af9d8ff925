// Foreign keys in DDL: resolving a REFERENCES / FOREIGN KEY clause into a catalog::ForeignKey
// with PostgreSQL's checks and default name, validating the stored rows when ALTER TABLE adds
// one, and what DROP TABLE does to the foreign keys that reference a dropped table.
#include <algorithm>
#include <set>

#include "binder/type_rules.h"
#include "catalog/key_text.h"
#include "commands/ddl.h"
#include "execution/hash_key.h"
#include "execution/operator.h"

namespace meridian::exec {
namespace {

constexpr const char* kInvalidForeignKey = sqlstate::kInvalidForeignKey;

Status NoColumn(const std::string& name, const ast::ForeignKeyDef& def) {
  return Status::Error(
             sqlstate::kUndefinedColumn,
             "column \"" + name + "\" referenced in foreign key constraint does not exist")
      .WithPosition(def.loc.position);
}

// The constraint names table already uses: CHECKs, foreign keys, key indexes.
std::set<std::string> ConstraintNames(const catalog::TableSchema& schema,
                                      const std::shared_ptr<catalog::Table>& table) {
  std::set<std::string> names;
  for (const catalog::CheckConstraint& c : schema.checks) names.insert(c.name);
  for (const catalog::ForeignKey& fk : schema.foreign_keys) names.insert(fk.name);
  if (table != nullptr) {
    for (const std::shared_ptr<catalog::Index>& index : table->IndexSnapshot()) {
      if (index->schema().IsConstraint()) names.insert(index->name());
    }
  }
  return names;
}

}  // namespace

namespace {

// Whether the written name names child itself: its bare name, or its (possibly schema-
// qualified, as a CREATE TABLE passes it) name, or schema.name of its schema.
bool SameRelation(const std::string& written, const catalog::TableSchema& child) {
  if (written == child.name) return true;
  std::string ws, wn, cs, cn;
  ast::SplitName(written, &ws, &wn);
  ast::SplitName(child.name, &cs, &cn);
  if (cs.empty()) cs = child.nsp;
  return wn == cn && (ws.empty() || ws == cs);
}

}  // namespace

Result<catalog::ForeignKey> MakeForeignKey(const ast::ForeignKeyDef& def, const std::string& column,
                                           const catalog::TableSchema& child,
                                           const std::shared_ptr<catalog::Table>& self,
                                           catalog::Catalog* catalog,
                                           std::shared_ptr<catalog::Table>* parent_out) {
  if (def.match == 'p') {
    return Status::NotSupported("MATCH PARTIAL not yet implemented").WithPosition(def.loc.position);
  }
  if (def.deferrable) {
    return Status::NotSupported("DEFERRABLE foreign key constraints are not supported")
        .WithHint(
            "Meridian checks every foreign key at the end of each statement (NOT "
            "DEFERRABLE, INITIALLY IMMEDIATE).")
        .WithPosition(def.loc.position);
  }
  if (Status st = catalog->CheckSchemaOf(def.table); !st.ok()) {  // 3F000
    return st.WithPosition(def.table_loc.position);
  }
  std::shared_ptr<catalog::Table> parent =
      self != nullptr && SameRelation(def.table, child) ? self : catalog->Find(def.table);
  if (parent == nullptr) {
    return Status::Error(sqlstate::kUndefinedTable,
                         "relation \"" + ast::DisplayName(def.table) + "\" does not exist")
        .WithPosition(def.table_loc.position);
  }
  const catalog::TableSchema& ps = parent == self ? child : parent->schema();
  catalog::ForeignKey fk;
  std::vector<std::string> names = def.columns;
  if (names.empty()) names.push_back(column);
  for (const std::string& name : names) {
    const int c = child.FindColumn(name);
    if (c < 0) return NoColumn(name, def);
    fk.columns.push_back(c);
  }
  const std::vector<std::shared_ptr<catalog::Index>> indexes = parent->IndexSnapshot();
  if (def.ref_columns.empty()) {
    if (ps.primary_key.empty()) {
      return Status::Error(sqlstate::kUndefinedObject,
                           "there is no primary key for referenced table \"" + ps.name + "\"");
    }
    fk.ref_columns = ps.primary_key;
  } else {
    for (const std::string& name : def.ref_columns) {
      const int c = ps.FindColumn(name);
      if (c < 0) return NoColumn(name, def);
      fk.ref_columns.push_back(c);
    }
  }
  if (fk.columns.size() != fk.ref_columns.size()) {
    return Status::Error(kInvalidForeignKey,
                         "number of referencing and referenced columns for foreign key disagree");
  }
  bool unique = false;
  for (const std::shared_ptr<catalog::Index>& index : indexes) {
    const std::vector<int>& x = index->schema().columns;
    if (index->schema().unique && index->schema().IsPlain() && x.size() == fk.ref_columns.size() &&
        std::is_permutation(x.begin(), x.end(), fk.ref_columns.begin())) {
      unique = true;
    }
  }
  if (!unique) {
    return Status::Error(kInvalidForeignKey,
                         "there is no unique constraint matching given keys for referenced table "
                         "\"" +
                             ps.name + "\"");
  }
  // PostgreSQL's default name: <table>_<columns>_fkey, made unique within the table.
  const std::set<std::string> taken = ConstraintNames(child, self);
  if (def.name.empty()) {
    std::string base = child.name;
    for (int c : fk.columns) base += "_" + child.columns[c].name;
    fk.name = base + "_fkey";
    for (int n = 1; taken.count(fk.name) != 0; ++n) fk.name = base + "_fkey" + std::to_string(n);
  } else if (taken.count(def.name) != 0) {
    return Status::Error(
        sqlstate::kDuplicateObject,
        "constraint \"" + def.name + "\" for relation \"" + child.name + "\" already exists");
  } else {
    fk.name = def.name;
  }
  for (size_t i = 0; i < fk.columns.size(); ++i) {
    const Type a = child.columns[fk.columns[i]].type;
    const Type b = ps.columns[fk.ref_columns[i]].type;
    if (!Comparable(a, b) || (a.id == TypeId::kBoolean) != (b.id == TypeId::kBoolean)) {
      return Status::Error(sqlstate::kDatatypeMismatch,
                           "foreign key constraint \"" + fk.name + "\" cannot be implemented")
          .WithDetail("Key columns \"" + child.columns[fk.columns[i]].name + "\" and \"" +
                      ps.columns[fk.ref_columns[i]].name +
                      "\" are of incompatible types: " + a.Name() + " and " + b.Name() + ".");
    }
  }
  fk.ref_table = parent == self && self != nullptr ? child.id : parent->id();
  fk.match = def.match;
  fk.on_delete = def.on_delete;
  fk.on_update = def.on_update;
  if (parent_out != nullptr) *parent_out = parent;
  return fk;
}

Status ValidateForeignKey(catalog::Table& child, const catalog::ForeignKey& fk,
                          catalog::Table& parent, ExecControl& ctl) {
  // The parent's keys (cast to the referencing columns' types), then every child row that is
  // not dead (rows of running transactions too: they may still commit).
  std::set<std::string> keys;
  int until_check = kCheckInterval;
  auto poll = [&]() -> Status {
    if (--until_check > 0) return Status::Ok();
    until_check = kCheckInterval;
    return ctl.Check();
  };
  MERIDIAN_RETURN_IF_ERROR(parent.ForEachVersion([&](storage::Rid, const storage::TupleHeader& h,
                                                     const Row& row) -> Status {
    MERIDIAN_RETURN_IF_ERROR(poll());
    if (parent.IsDeadVersion(h)) return Status::Ok();
    std::vector<Value> key;
    for (size_t i = 0; i < fk.columns.size(); ++i) {
      const int p = fk.ref_columns[i];
      Result<Value> v = CastValue(row[p], parent.types()[p], child.types()[fk.columns[i]], false);
      if (!v.ok()) return Status::Ok();  // no child value can equal it
      key.push_back(std::move(v).value());
    }
    keys.insert(exec::EncodeKey(key));
    return Status::Ok();
  }));
  return child.ForEachVersion([&](storage::Rid, const storage::TupleHeader& h,
                                  const Row& row) -> Status {
    MERIDIAN_RETURN_IF_ERROR(poll());
    if (child.IsDeadVersion(h)) return Status::Ok();
    std::vector<Value> key;
    size_t nulls = 0;
    for (int c : fk.columns) {
      nulls += row[c].IsNull() ? 1 : 0;
      key.push_back(row[c]);
    }
    if (nulls == key.size() || (nulls > 0 && fk.match != 'f')) return Status::Ok();
    Status violation = Status::Error(sqlstate::kForeignKeyViolation,
                                     "insert or update on table \"" + child.name() +
                                         "\" violates foreign key constraint \"" + fk.name + "\"");
    if (nulls > 0) {
      return violation.WithDetail(
          "MATCH FULL does not allow mixing of null and nonnull key values.");
    }
    if (keys.count(exec::EncodeKey(key)) != 0) return Status::Ok();
    std::string names;
    for (int c : fk.columns) {
      names += (names.empty() ? "" : ", ") + child.schema().columns[c].name;
    }
    return violation.WithDetail("Key (" + names + ")=(" + catalog::KeyToText(key) +
                                ") is not present in table \"" + parent.name() + "\".");
  });
}

Status CheckReferencingKeys(catalog::Catalog* catalog, const std::vector<uint32_t>& dropped,
                            bool cascade, std::string* notice, catalog::LockSet* locks,
                            std::vector<catalog::Catalog::Reference>* drop) {
  auto is_dropped = [&](uint32_t id) {
    return std::find(dropped.begin(), dropped.end(), id) != dropped.end();
  };
  for (uint32_t id : dropped) {
    for (catalog::Catalog::Reference& ref : catalog->ReferencesTo(id)) {
      if (is_dropped(ref.table->id())) continue;  // goes with its table
      std::shared_ptr<catalog::Table> parent = catalog->FindById(id);
      const std::string parent_name = parent != nullptr ? parent->name() : "?";
      if (!cascade) {
        return Status::Error(
                   sqlstate::kDependentObjectsStillExist,
                   "cannot drop table " + parent_name + " because other objects depend on it")
            .WithDetail("constraint " + ref.fk.name + " on table " + ref.table->name() +
                        " depends on table " + parent_name)
            .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
      }
      if (!notice->empty()) *notice += "\n";
      *notice += "drop cascades to constraint " + ref.fk.name + " on table " + ref.table->name();
      locks->Add(ref.table, catalog::LockMode::kExclusive);
      drop->push_back(std::move(ref));
    }
  }
  return Status::Ok();
}

Status DropForeignKeys(catalog::Catalog* catalog,
                       const std::vector<catalog::Catalog::Reference>& drop) {
  for (const catalog::Catalog::Reference& ref : drop) {
    catalog::TableSchema schema = ref.table->schema();
    std::erase_if(schema.foreign_keys,
                  [&](const catalog::ForeignKey& fk) { return fk.name == ref.fk.name; });
    MERIDIAN_RETURN_IF_ERROR(catalog->AlterTable(ref.table, std::move(schema), {}));
  }
  return Status::Ok();
}

}  // namespace meridian::exec
