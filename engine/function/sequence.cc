// CREATE / ALTER / DROP SEQUENCE with PostgreSQL's option rules and messages, the sequences
// behind SERIAL and identity columns, and the sequence functions (see sequence.h).
#include "function/sequence.h"

#include <charconv>
#include <optional>

#include "binder/bound_expr.h"
#include "catalog/system_tables.h"
#include "execution/operator.h"
#include "main/session_settings.h"
#include "meridian/pg_oids.h"

namespace meridian::exec {

namespace {

using Kind = ast::SequenceOption::Kind;

Status Invalid(std::string message) {
  return Status::Error(sqlstate::kInvalidParameterValue, std::move(message));
}

Result<int64_t> OptionValue(const ast::SequenceOption& opt) {
  int64_t v = 0;
  const std::string& t = opt.value;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range) {
    return Status::Error(sqlstate::kNumericValueOutOfRange,
                         "value \"" + t + "\" is out of range for type bigint")
        .WithPosition(opt.loc.position);
  }
  if (ec != std::errc() || end != t.data() + t.size()) {
    return Status::Error(sqlstate::kInvalidTextRepresentation,
                         "invalid input syntax for type bigint: \"" + t + "\"")
        .WithPosition(opt.loc.position);
  }
  return v;
}

const char* SequenceTypeName(TypeId t) {
  return t == TypeId::kSmallInt ? "smallint" : t == TypeId::kInteger ? "integer" : "bigint";
}

// OWNED BY table.column resolved: the table's id and the column's position (0, -1 for NONE).
struct Owner {
  uint32_t table = 0;
  int column = -1;
  std::string nsp;  // the table's schema
};

Result<Owner> ResolveOwner(const ast::SequenceOption& opt, catalog::Catalog* catalog) {
  if (opt.owned_table.empty()) return Owner{};  // OWNED BY NONE
  std::shared_ptr<catalog::Table> table = catalog->Find(opt.owned_table);
  if (table == nullptr) {
    return Status::Error(sqlstate::kUndefinedTable,
                         "relation \"" + ast::DisplayName(opt.owned_table) + "\" does not exist")
        .WithPosition(opt.loc.position);
  }
  const int column = table->schema().FindColumn(opt.owned_column);
  if (column < 0) {
    return Status::Error(sqlstate::kUndefinedColumn,
                         "column \"" + opt.owned_column + "\" of relation \"" +
                             ast::DisplayName(opt.owned_table) + "\" does not exist")
        .WithPosition(opt.loc.position);
  }
  return Owner{table->id(), column, table->schema().nsp};
}

// OWNED BY a table of another schema than the sequence's: PostgreSQL's 55000.
Status CheckOwnerSchema(const Owner& owner, const std::string& nsp) {
  if (owner.table == 0 || owner.nsp == nsp) return Status::Ok();
  return Status::Error(sqlstate::kObjectNotInPrerequisiteState,
                       "sequence must be in same schema as table it is linked to");
}

// PostgreSQL's init_params: applies opts to *s (create: over the defaults of a new sequence;
// else over its current definition), checks the result, and sets *restart for RESTART.
Status ApplyOptions(const std::vector<ast::SequenceOption>& opts, bool create,
                    catalog::Catalog* catalog, catalog::SequenceSchema* s,
                    std::optional<int64_t>* restart, std::optional<Owner>* owner,
                    int64_t last_value) {
  const ast::SequenceOption* seen[9] = {};
  for (const ast::SequenceOption& o : opts) {
    const ast::SequenceOption*& slot = seen[static_cast<int>(o.kind)];
    if (slot != nullptr) {
      return Status::Error(sqlstate::kSyntaxError, "conflicting or redundant options")
          .WithPosition(o.loc.position);
    }
    slot = &o;
  }
  auto opt = [&](Kind k) { return seen[static_cast<int>(k)]; };
  const TypeId old_type = s->type;
  if (const auto* o = opt(Kind::kAs)) {
    const std::string& n = o->type.name;
    if (o->type.array || (n != "smallint" && n != "integer" && n != "bigint")) {
      return Invalid("sequence type must be smallint, integer, or bigint")
          .WithPosition(o->loc.position);
    }
    s->type = n == "smallint"  ? TypeId::kSmallInt
              : n == "integer" ? TypeId::kInteger
                               : TypeId::kBigInt;
  }
  if (const auto* o = opt(Kind::kIncrement)) {
    MERIDIAN_ASSIGN_OR_RETURN(s->increment, OptionValue(*o));
    if (s->increment == 0) return Invalid("INCREMENT must not be zero");
  }
  const bool up = s->increment > 0;
  const int64_t type_min = catalog::SequenceTypeMin(s->type);
  const int64_t type_max = catalog::SequenceTypeMax(s->type);
  // MAXVALUE / MINVALUE: as written; else the type's bound (a new sequence, NO ..., or an AS
  // that changed the type while the old value was the old type's bound).
  if (const auto* o = opt(Kind::kMaxValue); o != nullptr && !o->no_value) {
    MERIDIAN_ASSIGN_OR_RETURN(s->max_value, OptionValue(*o));
  } else if (create || o != nullptr ||
             (s->type != old_type && s->max_value == catalog::SequenceTypeMax(old_type))) {
    s->max_value = up ? type_max : -1;
  }
  if (const auto* o = opt(Kind::kMinValue); o != nullptr && !o->no_value) {
    MERIDIAN_ASSIGN_OR_RETURN(s->min_value, OptionValue(*o));
  } else if (create || o != nullptr ||
             (s->type != old_type && s->min_value == catalog::SequenceTypeMin(old_type))) {
    s->min_value = up ? 1 : type_min;
  }
  const std::string type_name = SequenceTypeName(s->type);
  if (s->max_value > type_max || s->max_value < type_min) {
    return Invalid("MAXVALUE (" + std::to_string(s->max_value) +
                   ") is out of range for sequence data type " + type_name);
  }
  if (s->min_value < type_min || s->min_value > type_max) {
    return Invalid("MINVALUE (" + std::to_string(s->min_value) +
                   ") is out of range for sequence data type " + type_name);
  }
  if (s->min_value >= s->max_value) {
    return Invalid("MINVALUE (" + std::to_string(s->min_value) + ") must be less than MAXVALUE (" +
                   std::to_string(s->max_value) + ")");
  }
  if (const auto* o = opt(Kind::kStart)) {
    MERIDIAN_ASSIGN_OR_RETURN(s->start, OptionValue(*o));
  } else if (create) {
    s->start = up ? s->min_value : s->max_value;
  }
  if (s->start < s->min_value) {
    return Invalid("START value (" + std::to_string(s->start) + ") cannot be less than MINVALUE (" +
                   std::to_string(s->min_value) + ")");
  }
  if (s->start > s->max_value) {
    return Invalid("START value (" + std::to_string(s->start) +
                   ") cannot be greater than MAXVALUE (" + std::to_string(s->max_value) + ")");
  }
  if (const auto* o = opt(Kind::kRestart)) {
    if (o->no_value) {
      *restart = s->start;
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(int64_t v, OptionValue(*o));
      *restart = v;
    }
  }
  const int64_t current = restart->has_value() ? **restart : last_value;
  if (!create && current < s->min_value) {
    return Invalid("RESTART value (" + std::to_string(current) +
                   ") cannot be less than MINVALUE (" + std::to_string(s->min_value) + ")");
  }
  if (!create && current > s->max_value) {
    return Invalid("RESTART value (" + std::to_string(current) +
                   ") cannot be greater than MAXVALUE (" + std::to_string(s->max_value) + ")");
  }
  if (const auto* o = opt(Kind::kCache)) {
    MERIDIAN_ASSIGN_OR_RETURN(s->cache, OptionValue(*o));
    if (s->cache <= 0) {
      return Invalid("CACHE (" + std::to_string(s->cache) + ") must be greater than zero");
    }
  }
  if (const auto* o = opt(Kind::kCycle)) s->cycle = !o->no_value;
  if (const auto* o = opt(Kind::kOwnedBy)) {
    MERIDIAN_ASSIGN_OR_RETURN(Owner resolved, ResolveOwner(*o, catalog));
    *owner = resolved;
  }
  return Status::Ok();
}

// pg_catalog and information_schema hold no user sequences (42501, as for other relations).
Status CheckSchema(const std::string& schema, const ast::Location& loc) {
  if (schema != "pg_catalog" && schema != "information_schema") return Status::Ok();
  return Status::Error(sqlstate::kInsufficientPrivilege, "permission denied for schema " + schema)
      .WithPosition(loc.position);
}

// The relation called name is not a sequence (42809), or does not exist (42P01).
Status NotASequence(const catalog::Catalog& catalog, const std::string& name, bool for_drop) {
  if (catalog::SystemTables::RelationOid(catalog, name).has_value()) {
    Status st = Status::Error(sqlstate::kWrongObjectType, "\"" + name + "\" is not a sequence");
    if (for_drop && catalog.Find(name) != nullptr) st.WithHint("Use DROP TABLE to remove a table.");
    return st;
  }
  return Status::Error(sqlstate::kUndefinedTable, std::string(for_drop ? "sequence" : "relation") +
                                                      " \"" + name + "\" does not exist");
}

void AddNotice(std::string* notice, const std::string& line) {
  if (!notice->empty()) *notice += "\n";
  *notice += line;
}

// The column a sequence is OWNED BY, or null.
const catalog::Column* OwnerColumn(const catalog::Catalog& catalog,
                                   const catalog::SequenceSchema& s,
                                   std::shared_ptr<catalog::Table>* table) {
  if (s.owner_table == 0) return nullptr;
  *table = catalog::SystemTables::TableByOid(catalog, RelationOidOf(s.owner_table));
  if (*table == nullptr) return nullptr;
  const auto& cols = (*table)->schema().columns;
  if (s.owner_column < 0 || s.owner_column >= static_cast<int>(cols.size())) return nullptr;
  return &cols[s.owner_column];
}

}  // namespace

Status ExecuteCreateSequence(const ast::SequenceStmt& stmt, catalog::Catalog* catalog,
                             std::string* notice) {
  MERIDIAN_RETURN_IF_ERROR(CheckSchema(stmt.schema, stmt.name_loc));
  catalog::SequenceSchema s;
  s.name = ast::QualifyName(stmt.schema, stmt.name);
  if (stmt.temporary) {
    // CREATE TEMP SEQUENCE: in the session's pg_temp schema (42P16 for another schema), dropped
    // when the session ends (main/temp_tables.h), never written to catalog.meta.
    Result<std::string> temp_name = catalog->CreationName(s.name, true);
    if (!temp_name.ok()) return Status(temp_name.status()).WithPosition(stmt.name_loc.position);
    s.name = *temp_name;
  }
  std::optional<int64_t> restart;
  std::optional<Owner> owner;
  MERIDIAN_RETURN_IF_ERROR(ApplyOptions(stmt.options, true, catalog, &s, &restart, &owner, 0));
  if (owner) {
    Result<std::string> placed = catalog->CreationName(s.name, stmt.temporary);
    if (placed.ok()) {
      std::string nsp, bare;
      ast::SplitName(*placed, &nsp, &bare);
      MERIDIAN_RETURN_IF_ERROR(CheckOwnerSchema(*owner, nsp));
    }
    s.owner_table = owner->table;
    s.owner_column = owner->column;
  }
  Result<std::shared_ptr<catalog::Sequence>> created = catalog->CreateSequence(std::move(s));
  if (!created.ok()) {
    if (stmt.if_not_exists && created.status().sqlstate() == sqlstate::kDuplicateTable) {
      *notice = "relation \"" + stmt.name + "\" already exists, skipping";
      return Status::Ok();
    }
    return Status(created.status()).WithPosition(stmt.name_loc.position);
  }
  return Status::Ok();
}

Status ExecuteAlterSequence(const ast::SequenceStmt& stmt, catalog::Catalog* catalog,
                            std::string* notice) {
  MERIDIAN_RETURN_IF_ERROR(CheckSchema(stmt.schema, stmt.name_loc));
  std::shared_ptr<catalog::Sequence> seq =
      catalog->FindSequence(ast::QualifyName(stmt.schema, stmt.name));
  if (seq == nullptr) {
    if (stmt.if_exists && !catalog::SystemTables::RelationOid(*catalog, stmt.name)) {
      *notice = "relation \"" + stmt.name + "\" does not exist, skipping";
      return Status::Ok();
    }
    return NotASequence(*catalog, stmt.name, false).WithPosition(stmt.name_loc.position);
  }
  catalog::SequenceSchema s = *seq->schema();
  std::optional<int64_t> restart;
  std::optional<Owner> owner;
  MERIDIAN_RETURN_IF_ERROR(
      ApplyOptions(stmt.options, false, catalog, &s, &restart, &owner, seq->State().first));
  if (owner) {
    if (s.identity != 0) {
      return Status::Error(sqlstate::kFeatureNotSupported,
                           "cannot change ownership of identity sequence")
          .WithPosition(stmt.name_loc.position);
    }
    MERIDIAN_RETURN_IF_ERROR(CheckOwnerSchema(*owner, s.nsp));
    s.owner_table = owner->table;
    s.owner_column = owner->column;
  }
  return catalog->AlterSequence(seq, std::move(s), restart ? &*restart : nullptr);
}

Status ExecuteDropSequence(const ast::DropTableStmt& stmt, catalog::Catalog* catalog,
                           std::string* notice) {
  std::vector<uint32_t> ids;
  for (size_t i = 0; i < stmt.tables.size(); ++i) {
    const std::string& name = stmt.tables[i];
    if (Status st = catalog->CheckSchemaOf(name); !st.ok()) {
      if (!stmt.if_exists) return st;
      AddNotice(notice, st.message() + ", skipping");
      continue;
    }
    std::shared_ptr<catalog::Sequence> seq = catalog->FindSequence(name);
    if (seq == nullptr) {
      if (stmt.if_exists && !catalog::SystemTables::RelationOid(*catalog, name)) {
        AddNotice(notice, "sequence \"" + name + "\" does not exist, skipping");
        continue;
      }
      return NotASequence(*catalog, name, true).WithPosition(stmt.table_locs[i].position);
    }
    const catalog::SequenceSchema& s = *seq->schema();
    std::shared_ptr<catalog::Table> table;
    const catalog::Column* col = OwnerColumn(*catalog, s, &table);
    if (col != nullptr && s.identity != 0) {
      return Status::Error(sqlstate::kDependentObjectsStillExist,
                           "cannot drop sequence " + name + " because column " + col->name +
                               " of table " + table->name() + " requires it")
          .WithHint("You can drop column " + col->name + " of table " + table->name() + " instead.")
          .WithPosition(stmt.table_locs[i].position);
    }
    if (col != nullptr && col->default_text.find("'" + name + "'") != std::string::npos) {
      if (stmt.cascade) {
        return Status::NotSupported(
                   "DROP SEQUENCE ... CASCADE of a sequence a column default uses is not "
                   "supported yet")
            .WithHint("ALTER TABLE " + table->name() + " ALTER COLUMN " + col->name +
                      " DROP DEFAULT first.")
            .WithPosition(stmt.table_locs[i].position);
      }
      return Status::Error(sqlstate::kDependentObjectsStillExist,
                           "cannot drop sequence " + name + " because other objects depend on it")
          .WithDetail("default value for column " + col->name + " of table " + table->name() +
                      " depends on sequence " + name)
          .WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
          .WithPosition(stmt.table_locs[i].position);
    }
    ids.push_back(s.id);
  }
  if (ids.empty()) return Status::Ok();
  return catalog->DropSequences(ids);
}

Result<std::shared_ptr<catalog::Sequence>> CreateColumnSequence(const std::string& table,
                                                                const ast::ColumnDef& def,
                                                                TypeId type,
                                                                catalog::Catalog* catalog,
                                                                std::string* default_text) {
  catalog::SequenceSchema s;
  s.type = type;
  s.name = catalog->ChooseIndexName(table + "_" + def.name + "_seq");
  std::optional<int64_t> restart;
  std::optional<Owner> owner;
  std::vector<ast::SequenceOption> opts;
  for (const ast::SequenceOption& o : def.identity_options) {
    if (o.kind == Kind::kOwnedBy) {
      return Status::Error(sqlstate::kSyntaxError, "invalid sequence option OWNED BY")
          .WithPosition(o.loc.position);
    }
    opts.push_back(o);
  }
  MERIDIAN_RETURN_IF_ERROR(ApplyOptions(opts, true, catalog, &s, &restart, &owner, 0));
  // The DEFAULT names the sequence as regclass prints it: qualified unless its schema is the
  // one an unqualified name finds first (a TEMP table's own pg_temp schema included).
  std::string nsp, bare;
  ast::SplitName(s.name, &nsp, &bare);
  std::string shown = catalog::QuoteIdent(bare);
  const std::vector<std::string> path = catalog->EffectiveSearchPath(false);
  if (!nsp.empty() && !catalog::Catalog::IsTempSchema(nsp) && (path.empty() || path[0] != nsp)) {
    shown = catalog::QuoteIdent(nsp) + "." + shown;
  }
  *default_text = "nextval('" + shown + "'::regclass)";
  return catalog->CreateSequence(std::move(s));
}

Status SetSequenceOwner(const std::shared_ptr<catalog::Sequence>& seq, uint32_t table, int column,
                        char identity, catalog::Catalog* catalog) {
  catalog::SequenceSchema s = *seq->schema();
  s.owner_table = table;
  s.owner_column = column;
  s.identity = identity;
  return catalog->AlterSequence(seq, std::move(s), nullptr);
}

char ColumnIdentity(const catalog::Catalog& catalog, uint32_t table, int column) {
  for (const auto& seq : catalog.ListSequences()) {
    std::shared_ptr<const catalog::SequenceSchema> s = seq->schema();
    if (s->identity != 0 && s->owner_table == table && s->owner_column == column) {
      return s->identity;
    }
  }
  return 0;
}

Result<Value> EvalSequenceFunction(const BoundExpr& e, const std::vector<Value>& args,
                                   ExecContext* exec) {
  if (exec == nullptr || exec->catalog == nullptr || exec->settings == nullptr) {
    return Status::Internal("no session for a sequence function");
  }
  catalog::Catalog& catalog = *exec->catalog;
  SequenceValues& values = exec->settings->sequence_values();
  if (e.func == Func::kLastval) {
    std::shared_ptr<catalog::Sequence> seq =
        values.last_used != 0 ? catalog.SequenceById(values.last_used) : nullptr;
    if (seq == nullptr) {
      return Status::Error(sqlstate::kObjectNotInPrerequisiteState,
                           "lastval is not yet defined in this session");
    }
    return Value::Int(values.last[values.last_used]);
  }
  if (e.func == Func::kSerialSequence) {
    const std::string& name = args[0].AsString();
    std::optional<int64_t> oid = catalog::SystemTables::RelationOid(catalog, name);
    std::shared_ptr<catalog::Table> table =
        oid ? catalog::SystemTables::TableByOid(catalog, *oid) : nullptr;
    if (table == nullptr) {
      return Status::Error(sqlstate::kUndefinedTable, "relation \"" + name + "\" does not exist");
    }
    const int column = table->schema().FindColumn(args[1].AsString());
    if (column < 0) {
      return Status::Error(sqlstate::kUndefinedColumn, "column \"" + args[1].AsString() +
                                                           "\" of relation \"" + table->name() +
                                                           "\" does not exist");
    }
    for (const auto& seq : catalog.ListSequences()) {
      std::shared_ptr<const catalog::SequenceSchema> s = seq->schema();
      if (s->owner_table == table->id() && s->owner_column == column) {
        return Value::String("public." + catalog::QuoteIdent(s->name));
      }
    }
    return Value::Null();
  }
  // The sequence: a name (as ::regclass reads it) or an oid.
  std::shared_ptr<catalog::Sequence> seq;
  if (args[0].IsString()) {
    const std::string& name = args[0].AsString();
    std::optional<int64_t> oid = catalog::SystemTables::RelationOid(catalog, name);
    if (!oid) {
      return Status::Error(sqlstate::kUndefinedTable, "relation \"" + name + "\" does not exist");
    }
    seq = catalog.SequenceById(static_cast<uint32_t>(*oid - kOidFirstNormal));
    if (seq == nullptr) {
      return Status::Error(sqlstate::kWrongObjectType, "\"" + name + "\" is not a sequence");
    }
  } else {
    const int64_t oid = args[0].AsInt();
    if (oid >= kOidFirstNormal) {
      seq = catalog.SequenceById(static_cast<uint32_t>(oid - kOidFirstNormal));
    }
    if (seq == nullptr) {
      std::optional<std::string> name = catalog::SystemTables::RelationName(catalog, oid);
      if (name) {
        return Status::Error(sqlstate::kWrongObjectType, "\"" + *name + "\" is not a sequence");
      }
      return Status::Error(sqlstate::kUndefinedTable,
                           "could not open relation with OID " + std::to_string(oid));
    }
  }
  const uint32_t id = seq->schema()->id;
  if ((e.func == Func::kNextval || e.func == Func::kSetval) && exec->txn != nullptr &&
      exec->txn->read_only()) {
    return Status::Error(sqlstate::kReadOnlySqlTransaction,
                         std::string("cannot execute ") +
                             (e.func == Func::kNextval ? "nextval()" : "setval()") +
                             " in a read-only transaction");
  }
  switch (e.func) {
    case Func::kNextval: {
      MERIDIAN_ASSIGN_OR_RETURN(int64_t v, seq->Next());
      values.last[id] = v;
      values.last_used = id;
      return Value::Int(v);
    }
    case Func::kCurrval: {
      auto it = values.last.find(id);
      if (it == values.last.end()) {
        return Status::Error(sqlstate::kObjectNotInPrerequisiteState,
                             "currval of sequence \"" + seq->schema()->name +
                                 "\" is not yet defined in this session");
      }
      return Value::Int(it->second);
    }
    case Func::kSetval: {
      const int64_t v = args[1].AsInt();
      const bool is_called = args.size() < 3 || args[2].AsBool();
      MERIDIAN_RETURN_IF_ERROR(seq->Set(v, is_called));
      if (is_called) {
        values.last[id] = v;
        values.last_used = id;
      }
      return Value::Int(v);
    }
    default:
      break;
  }
  return Status::Internal("unknown sequence function");
}

}  // namespace meridian::exec
