// CREATE TABLE [IF NOT EXISTS] t (columns with NOT NULL/NULL/DEFAULT/PRIMARY KEY/UNIQUE/CHECK/
// REFERENCES, table constraints PRIMARY KEY (..), UNIQUE (..), CHECK (..), FOREIGN KEY (..)
// REFERENCES ..), CREATE TABLE ... AS query and ALTER TABLE. Conflicting declarations are
// rejected as PostgreSQL rejects them; DEFAULT and CHECK keep their exact source text for the
// catalog.

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <utility>

#include "transformer.h"

namespace meridian::parser {
namespace {

constexpr const char* kInvalidTableDefinition = "42P16";

}  // namespace

ast::CheckDef Transformer::TransformCheck(P::ExprContext* expr, P::IdentifierContext* name,
                                          antlr4::ParserRuleContext* at) {
  ast::CheckDef check;
  if (name != nullptr) check.name = Identifier(name);
  check.expr = TransformExpr(expr);
  check.text = std::string(SourceOf(expr));
  check.loc = Loc(at);
  return check;
}

ast::ForeignKeyDef Transformer::TransformReferences(P::ReferencesClauseContext* ctx) {
  ast::ForeignKeyDef fk;
  fk.loc = Loc(ctx);
  // REFERENCES [schema.]t: a written name (ast::QualifyName), as RelationName gives.
  std::string schema, name;
  QualifiedName(ctx->qualifiedName(), &schema, &name);
  fk.table = ast::QualifyName(schema, name);
  fk.table_loc = Loc(ctx->qualifiedName());
  for (P::IdentifierContext* id : ctx->identifier()) fk.ref_columns.push_back(Identifier(id));
  if (ctx->K_FULL() != nullptr) fk.match = 'f';
  if (ctx->K_PARTIAL() != nullptr) fk.match = 'p';
  bool seen_delete = false, seen_update = false;
  for (P::ReferentialTriggerContext* t : ctx->referentialTrigger()) {
    P::ReferentialActionContext* a = t->referentialAction();
    char action = 'a';
    if (a->K_CASCADE() != nullptr) action = 'c';
    if (a->K_RESTRICT() != nullptr) action = 'r';
    if (a->K_NULL() != nullptr) action = 'n';
    if (a->K_DEFAULT() != nullptr) action = 'd';
    bool& seen = t->K_DELETE() != nullptr ? seen_delete : seen_update;
    if (seen) Fail(ErrorAt(t, sqlstate::kSyntaxError, "syntax error at or near \"ON\""));
    seen = true;
    (t->K_DELETE() != nullptr ? fk.on_delete : fk.on_update) = action;
  }
  for (P::ConstraintTimingContext* t : ctx->constraintTiming()) {
    if (t->K_DEFERRABLE() != nullptr) fk.deferrable = t->K_NOT() == nullptr;
    if (t->K_DEFERRED() != nullptr) fk.initially_deferred = fk.deferrable = true;
  }
  return fk;
}

ast::ColumnDef Transformer::TransformColumnDef(P::ColumnDefContext* col_ctx,
                                               const std::string& table) {
  ast::ColumnDef col;
  col.loc = Loc(col_ctx);
  col.name = Identifier(col_ctx->identifier());
  // SERIAL and friends are no types: PostgreSQL expands them to an integer column with an
  // owned sequence (the engine does that from col.serial).
  P::TypeNameContext* type_ctx = col_ctx->typeName();
  std::string written = type_ctx->getText();
  for (char& c : written) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::pair<const char*, const char*> kSerials[] = {
      {"serial", "integer"}, {"serial4", "integer"},      {"bigserial", "bigint"},
      {"serial8", "bigint"}, {"smallserial", "smallint"}, {"serial2", "smallint"}};
  for (const auto& [name, type] : kSerials) {
    if (written == name) {
      col.serial = true;
      col.type.name = type;
      col.type.loc = Loc(type_ctx);
    }
  }
  if (!col.serial) col.type = TransformType(type_ctx);
  bool nullability_seen = false;
  for (P::ColumnConstraintContext* cons : col_ctx->columnConstraint()) {
    P::ColumnConstraintBodyContext* body = cons->columnConstraintBody();
    const bool not_null = dynamic_cast<P::NotNullConstraintContext*>(body) != nullptr;
    if (not_null || dynamic_cast<P::NullConstraintContext*>(body) != nullptr) {
      if (nullability_seen && col.not_null != not_null) {
        Fail(ErrorAt(body, sqlstate::kSyntaxError,
                     "conflicting NULL/NOT NULL declarations for column \"" + col.name +
                         "\" of table \"" + table + "\""));
      }
      nullability_seen = true;
      col.not_null = not_null;
    } else if (auto* def = dynamic_cast<P::DefaultConstraintContext*>(body)) {
      if (col.default_expr) {
        Fail(ErrorAt(body, sqlstate::kSyntaxError,
                     "multiple default values specified for column \"" + col.name +
                         "\" of table \"" + table + "\""));
      }
      col.default_expr = TransformExpr(def->expr());
      col.default_text = std::string(SourceOf(def->expr()));
    } else if (dynamic_cast<P::PrimaryKeyConstraintContext*>(body) != nullptr) {
      col.primary_key = true;
      if (cons->identifier() != nullptr) col.primary_key_name = Identifier(cons->identifier());
    } else if (auto* check = dynamic_cast<P::CheckConstraintContext*>(body)) {
      col.checks.push_back(TransformCheck(check->expr(), cons->identifier(), body));
    } else if (auto* refs = dynamic_cast<P::ReferencesConstraintContext*>(body)) {
      col.references.push_back(TransformReferences(refs->referencesClause()));
      if (cons->identifier() != nullptr) {
        col.references.back().name = Identifier(cons->identifier());
      }
    } else if (auto* identity = dynamic_cast<P::IdentityConstraintContext*>(body)) {
      if (col.identity != 0) {
        Fail(ErrorAt(body, sqlstate::kSyntaxError,
                     "multiple identity specifications for column \"" + col.name +
                         "\" of table \"" + table + "\""));
      }
      col.identity = identity->K_ALWAYS() != nullptr ? 'a' : 'd';
      for (P::SequenceOptionContext* o : identity->sequenceOption()) {
        col.identity_options.push_back(TransformSequenceOption(o));
      }
    } else {
      col.unique = true;
      if (cons->identifier() != nullptr) col.unique_name = Identifier(cons->identifier());
    }
  }
  if (col.serial && col.default_expr != nullptr) {
    Fail(ErrorAt(col_ctx, sqlstate::kSyntaxError,
                 "multiple default values specified for column \"" + col.name + "\" of table \"" +
                     table + "\""));
  } else if (col.identity != 0 && col.default_expr != nullptr) {
    Fail(ErrorAt(col_ctx, sqlstate::kSyntaxError,
                 "both default and identity specified for column \"" + col.name + "\" of table \"" +
                     table + "\""));
  } else if (col.identity != 0 && col.serial) {
    Fail(ErrorAt(col_ctx, sqlstate::kSyntaxError,
                 "both default and identity specified for column \"" + col.name + "\" of table \"" +
                     table + "\""));
  }
  if (col.serial || col.identity != 0) col.not_null = true;
  return col;
}

void Transformer::TransformTableConstraint(P::TableConstraintContext* constraint,
                                           ast::CreateTableStmt* stmt) {
  P::TableConstraintBodyContext* body = constraint->tableConstraintBody();
  if (auto* check = dynamic_cast<P::CheckTableConstraintContext*>(body)) {
    stmt->checks.push_back(TransformCheck(check->expr(), constraint->identifier(), body));
    return;
  }
  if (auto* fk = dynamic_cast<P::ForeignKeyTableConstraintContext*>(body)) {
    ast::ForeignKeyDef def = TransformReferences(fk->referencesClause());
    for (P::IdentifierContext* id : fk->identifier()) def.columns.push_back(Identifier(id));
    if (constraint->identifier() != nullptr) def.name = Identifier(constraint->identifier());
    def.loc = Loc(body);
    stmt->foreign_keys.push_back(std::move(def));
    return;
  }
  std::string constraint_name;
  if (constraint->identifier() != nullptr) constraint_name = Identifier(constraint->identifier());
  std::vector<std::string> names;
  std::vector<P::IdentifierContext*> ids;
  auto* pk = dynamic_cast<P::PrimaryKeyTableConstraintContext*>(body);
  if (pk != nullptr) {
    if (!stmt->primary_key.empty()) {
      Fail(ErrorAt(body, kInvalidTableDefinition,
                   "multiple primary keys for table \"" + stmt->table + "\" are not allowed"));
    }
    stmt->primary_key_loc = Loc(body);
    ids = pk->identifier();
  } else {
    ids = static_cast<P::UniqueTableConstraintContext*>(body)->identifier();
  }
  for (P::IdentifierContext* id : ids) names.push_back(Identifier(id));
  if (pk != nullptr) {
    stmt->primary_key = std::move(names);
    stmt->primary_key_name = std::move(constraint_name);
  } else {
    stmt->unique_keys.push_back({std::move(names), std::move(constraint_name), Loc(body)});
  }
}

std::unique_ptr<ast::CreateTableStmt> Transformer::TransformCreateTable(
    P::CreateTableStmtContext* ctx) {
  auto stmt = std::make_unique<ast::CreateTableStmt>();
  stmt->table = RelationName(ctx->qualifiedName());
  stmt->if_not_exists = ctx->K_IF() != nullptr;
  stmt->temp = ctx->K_TEMP() != nullptr || ctx->K_TEMPORARY() != nullptr;
  stmt->on_commit = TransformOnCommit(ctx->onCommitClause(), stmt->temp);
  for (P::StorageParameterContext* param : ctx->storageParameter()) CheckStorageParameter(param);
  bool has_primary_key = false;
  for (P::TableElementContext* element : ctx->tableElement()) {
    if (P::ColumnDefContext* col_ctx = element->columnDef()) {
      ast::ColumnDef col = TransformColumnDef(col_ctx, stmt->table);
      if (col.primary_key) {
        if (has_primary_key) {
          Fail(ErrorAt(col_ctx, kInvalidTableDefinition,
                       "multiple primary keys for table \"" + stmt->table + "\" are not allowed"));
        }
        has_primary_key = true;
      }
      stmt->columns.push_back(std::move(col));
      continue;
    }
    P::TableConstraintContext* constraint = element->tableConstraint();
    if (has_primary_key && dynamic_cast<P::PrimaryKeyTableConstraintContext*>(
                               constraint->tableConstraintBody()) != nullptr) {
      Fail(ErrorAt(constraint->tableConstraintBody(), kInvalidTableDefinition,
                   "multiple primary keys for table \"" + stmt->table + "\" are not allowed"));
    }
    const bool had_pk = !stmt->primary_key.empty();
    TransformTableConstraint(constraint, stmt.get());
    if (!had_pk && !stmt->primary_key.empty()) has_primary_key = true;
  }
  return stmt;
}

void Transformer::CheckStorageParameter(P::StorageParameterContext* ctx) {
  // name or prefix.name; a value written as a word is the identifier after them.
  const std::vector<P::IdentifierContext*> ids = ctx->identifier();
  std::string name = Identifier(ids[0]);
  if (ctx->DOT() != nullptr) name += "." + Identifier(ids[1]);
  static const char* const kParameters[] = {"fillfactor",
                                            "toast_tuple_target",
                                            "parallel_workers",
                                            "autovacuum_enabled",
                                            "toast.autovacuum_enabled",
                                            "vacuum_index_cleanup",
                                            "vacuum_truncate",
                                            "user_catalog_table",
                                            "log_autovacuum_min_duration",
                                            "autovacuum_vacuum_threshold",
                                            "autovacuum_vacuum_scale_factor",
                                            "autovacuum_vacuum_insert_threshold",
                                            "autovacuum_vacuum_insert_scale_factor",
                                            "autovacuum_analyze_threshold",
                                            "autovacuum_analyze_scale_factor",
                                            "autovacuum_vacuum_cost_delay",
                                            "autovacuum_vacuum_cost_limit",
                                            "autovacuum_freeze_min_age",
                                            "autovacuum_freeze_max_age",
                                            "autovacuum_freeze_table_age",
                                            "autovacuum_multixact_freeze_min_age",
                                            "autovacuum_multixact_freeze_max_age",
                                            "autovacuum_multixact_freeze_table_age"};
  if (std::find(std::begin(kParameters), std::end(kParameters), name) == std::end(kParameters)) {
    Fail(ErrorAt(ctx, sqlstate::kInvalidParameterValue, "unrecognized parameter \"" + name + "\""));
    return;
  }
  if (name == "fillfactor" && ctx->signedNumber() != nullptr) {
    const std::string text = ctx->signedNumber()->getText();
    const double v = std::strtod(text.c_str(), nullptr);
    if (!(v >= 10 && v <= 100)) {
      Fail(ErrorAt(ctx, sqlstate::kInvalidParameterValue,
                   "value " + text + " out of bounds for option \"fillfactor\"")
               .WithDetail("Valid values are between \"10\" and \"100\"."));
    }
  }
}

std::unique_ptr<ast::CreateTableAsStmt> Transformer::TransformCreateTableAs(
    P::CreateTableAsStmtContext* ctx) {
  auto stmt = std::make_unique<ast::CreateTableAsStmt>();
  std::vector<P::IdentifierContext*> ids = ctx->identifier();
  stmt->table = RelationName(ctx->qualifiedName());
  stmt->table_loc = Loc(ctx->qualifiedName());
  stmt->if_not_exists = ctx->K_IF() != nullptr;
  stmt->temp = ctx->K_TEMP() != nullptr || ctx->K_TEMPORARY() != nullptr;
  stmt->on_commit = TransformOnCommit(ctx->onCommitClause(), stmt->temp);
  for (P::IdentifierContext* id : ids) stmt->columns.push_back(Identifier(id));
  stmt->query = TransformSelect(ctx->selectStmt());
  stmt->with_data = ctx->K_NO() == nullptr;
  return stmt;
}

std::unique_ptr<ast::AlterTableStmt> Transformer::TransformAlterTable(
    P::AlterTableStmtContext* ctx) {
  using Kind = ast::AlterTableCmd::Kind;
  auto stmt = std::make_unique<ast::AlterTableStmt>();
  stmt->table = RelationName(ctx->table);
  stmt->table_loc = Loc(ctx->table);
  stmt->if_exists = ctx->K_IF() != nullptr;
  if (ctx->K_RENAME() != nullptr) {
    ast::AlterTableCmd cmd;
    cmd.loc = Loc(ctx->to);
    cmd.new_name = Identifier(ctx->to);
    if (ctx->from == nullptr) {
      cmd.kind = Kind::kRenameTable;
    } else {
      cmd.kind = ctx->K_CONSTRAINT() != nullptr ? Kind::kRenameConstraint : Kind::kRenameColumn;
      cmd.name = Identifier(ctx->from);
      cmd.loc = Loc(ctx->from);
    }
    stmt->cmds.push_back(std::move(cmd));
    return stmt;
  }
  for (P::AlterTableActionContext* action : ctx->alterTableAction()) {
    ast::AlterTableCmd cmd;
    cmd.loc = Loc(action);
    if (auto* add = dynamic_cast<P::AddColumnActionContext*>(action)) {
      cmd.kind = Kind::kAddColumn;
      cmd.missing_ok = add->K_IF() != nullptr;
      cmd.column = TransformColumnDef(add->columnDef(), stmt->table);
    } else if (auto* con = dynamic_cast<P::AddConstraintActionContext*>(action)) {
      cmd.kind = Kind::kAddConstraint;
      ast::CreateTableStmt parts;
      parts.table = stmt->table;
      TransformTableConstraint(con->tableConstraint(), &parts);
      if (!parts.checks.empty()) {
        cmd.check = std::move(parts.checks[0]);
      } else if (!parts.foreign_keys.empty()) {
        cmd.column.references = std::move(parts.foreign_keys);
      } else if (!parts.primary_key.empty()) {
        cmd.primary_key = true;
        cmd.key_columns = std::move(parts.primary_key);
        cmd.name = std::move(parts.primary_key_name);
      } else if (!parts.unique_keys.empty()) {
        cmd.key_columns = std::move(parts.unique_keys[0].columns);
        cmd.name = std::move(parts.unique_keys[0].name);
      }
    } else if (auto* drop = dynamic_cast<P::DropColumnActionContext*>(action)) {
      cmd.kind = Kind::kDropColumn;
      cmd.missing_ok = drop->K_IF() != nullptr;
      cmd.name = Identifier(drop->identifier());
      cmd.cascade = drop->K_CASCADE() != nullptr;
    } else if (auto* dropc = dynamic_cast<P::DropConstraintActionContext*>(action)) {
      cmd.kind = Kind::kDropConstraint;
      cmd.missing_ok = dropc->K_IF() != nullptr;
      cmd.name = Identifier(dropc->identifier());
      cmd.cascade = dropc->K_CASCADE() != nullptr;
    } else {
      auto* alter = static_cast<P::AlterColumnActionContext*>(action);
      cmd.name = Identifier(alter->identifier());
      const bool set = alter->K_SET() != nullptr;
      if (alter->K_NULL() != nullptr) {
        cmd.kind = set ? Kind::kSetNotNull : Kind::kDropNotNull;
      } else if (set) {
        cmd.kind = Kind::kSetDefault;
        cmd.default_expr = TransformExpr(alter->expr());
        cmd.default_text = std::string(SourceOf(alter->expr()));
      } else {
        cmd.kind = Kind::kDropDefault;
      }
    }
    stmt->cmds.push_back(std::move(cmd));
  }
  return stmt;
}

}  // namespace meridian::parser
