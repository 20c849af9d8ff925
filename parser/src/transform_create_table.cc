// CREATE TABLE [IF NOT EXISTS] t (columns with NOT NULL/NULL/DEFAULT/PRIMARY KEY/UNIQUE, table
// constraints PRIMARY KEY (..) and UNIQUE (..)). Conflicting declarations are rejected as
// PostgreSQL rejects them; DEFAULT keeps its exact source text for the catalog.

#include "transformer.h"

namespace meridian::parser {
namespace {

constexpr const char* kInvalidTableDefinition = "42P16";

}  // namespace

std::unique_ptr<ast::CreateTableStmt> Transformer::TransformCreateTable(
    P::CreateTableStmtContext* ctx) {
  auto stmt = std::make_unique<ast::CreateTableStmt>();
  stmt->table = Identifier(ctx->identifier());
  stmt->if_not_exists = ctx->K_IF() != nullptr;
  bool has_primary_key = false;
  const auto note_primary_key = [&](antlr4::ParserRuleContext* at) {
    if (has_primary_key) {
      Fail(ErrorAt(at, kInvalidTableDefinition,
                   "multiple primary keys for table \"" + stmt->table + "\" are not allowed"));
    }
    has_primary_key = true;
  };

  for (P::TableElementContext* element : ctx->tableElement()) {
    if (P::ColumnDefContext* col_ctx = element->columnDef()) {
      ast::ColumnDef col;
      col.loc = Loc(col_ctx);
      col.name = Identifier(col_ctx->identifier());
      col.type = TransformType(col_ctx->typeName());
      bool nullability_seen = false;
      for (P::ColumnConstraintContext* cons : col_ctx->columnConstraint()) {
        P::ColumnConstraintBodyContext* body = cons->columnConstraintBody();
        const bool not_null = dynamic_cast<P::NotNullConstraintContext*>(body) != nullptr;
        if (not_null || dynamic_cast<P::NullConstraintContext*>(body) != nullptr) {
          if (nullability_seen && col.not_null != not_null) {
            Fail(ErrorAt(body, sqlstate::kSyntaxError,
                         "conflicting NULL/NOT NULL declarations for column \"" + col.name +
                             "\" of table \"" + stmt->table + "\""));
          }
          nullability_seen = true;
          col.not_null = not_null;
        } else if (auto* def = dynamic_cast<P::DefaultConstraintContext*>(body)) {
          if (col.default_expr) {
            Fail(ErrorAt(body, sqlstate::kSyntaxError,
                         "multiple default values specified for column \"" + col.name +
                             "\" of table \"" + stmt->table + "\""));
          }
          col.default_expr = TransformExpr(def->expr());
          col.default_text = std::string(SourceOf(def->expr()));
        } else if (dynamic_cast<P::PrimaryKeyConstraintContext*>(body) != nullptr) {
          note_primary_key(body);
          col.primary_key = true;
          if (cons->identifier() != nullptr) col.primary_key_name = Identifier(cons->identifier());
        } else {
          col.unique = true;
          if (cons->identifier() != nullptr) col.unique_name = Identifier(cons->identifier());
        }
      }
      stmt->columns.push_back(std::move(col));
      continue;
    }
    P::TableConstraintContext* constraint = element->tableConstraint();
    P::TableConstraintBodyContext* body = constraint->tableConstraintBody();
    std::string constraint_name;
    if (constraint->identifier() != nullptr) constraint_name = Identifier(constraint->identifier());
    std::vector<std::string> names;
    std::vector<P::IdentifierContext*> ids;
    if (auto* pk = dynamic_cast<P::PrimaryKeyTableConstraintContext*>(body)) {
      note_primary_key(body);
      stmt->primary_key_loc = Loc(body);
      ids = pk->identifier();
    } else {
      ids = static_cast<P::UniqueTableConstraintContext*>(body)->identifier();
    }
    for (P::IdentifierContext* id : ids) names.push_back(Identifier(id));
    if (dynamic_cast<P::PrimaryKeyTableConstraintContext*>(body) != nullptr) {
      stmt->primary_key = std::move(names);
      stmt->primary_key_name = std::move(constraint_name);
    } else {
      stmt->unique_keys.push_back({std::move(names), std::move(constraint_name), Loc(body)});
    }
  }
  return stmt;
}

}  // namespace meridian::parser
