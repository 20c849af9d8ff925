// CREATE / ALTER / DROP SEQUENCE, the sequence options (also an identity column's), and the
// RETURNING list of INSERT, UPDATE and DELETE.

#include "transformer.h"

namespace meridian::parser {

namespace {

std::string NumberText(P::SignedNumberContext* ctx) {
  std::string text = ctx->MINUS() != nullptr ? "-" : "";
  text += ctx->INTEGER_LITERAL() != nullptr ? ctx->INTEGER_LITERAL()->getText()
                                            : ctx->DECIMAL_LITERAL()->getText();
  return text;
}

}  // namespace

ast::SequenceOption Transformer::TransformSequenceOption(P::SequenceOptionContext* ctx) {
  using Kind = ast::SequenceOption::Kind;
  ast::SequenceOption opt;
  opt.loc = Loc(ctx);
  if (auto* o = dynamic_cast<P::SeqAsOptionContext*>(ctx)) {
    opt.kind = Kind::kAs;
    opt.type = TransformType(o->typeName());
  } else if (auto* o = dynamic_cast<P::SeqIncrementOptionContext*>(ctx)) {
    opt.kind = Kind::kIncrement;
    opt.value = NumberText(o->signedNumber());
  } else if (auto* o = dynamic_cast<P::SeqMinOptionContext*>(ctx)) {
    opt.kind = Kind::kMinValue;
    opt.value = NumberText(o->signedNumber());
  } else if (dynamic_cast<P::SeqNoMinOptionContext*>(ctx) != nullptr) {
    opt.kind = Kind::kMinValue;
    opt.no_value = true;
  } else if (auto* o = dynamic_cast<P::SeqMaxOptionContext*>(ctx)) {
    opt.kind = Kind::kMaxValue;
    opt.value = NumberText(o->signedNumber());
  } else if (dynamic_cast<P::SeqNoMaxOptionContext*>(ctx) != nullptr) {
    opt.kind = Kind::kMaxValue;
    opt.no_value = true;
  } else if (auto* o = dynamic_cast<P::SeqStartOptionContext*>(ctx)) {
    opt.kind = Kind::kStart;
    opt.value = NumberText(o->signedNumber());
  } else if (auto* o = dynamic_cast<P::SeqRestartOptionContext*>(ctx)) {
    opt.kind = Kind::kRestart;
    if (o->signedNumber() != nullptr) {
      opt.value = NumberText(o->signedNumber());
    } else {
      opt.no_value = true;
    }
  } else if (auto* o = dynamic_cast<P::SeqCacheOptionContext*>(ctx)) {
    opt.kind = Kind::kCache;
    opt.value = NumberText(o->signedNumber());
  } else if (auto* o = dynamic_cast<P::SeqCycleOptionContext*>(ctx)) {
    opt.kind = Kind::kCycle;
    opt.no_value = o->K_NO() != nullptr;
  } else if (auto* o = dynamic_cast<P::SeqOwnedByOptionContext*>(ctx)) {
    opt.kind = Kind::kOwnedBy;
    std::vector<P::IdentifierContext*> ids = o->identifier();
    if (ids.size() == 1) {
      opt.owned_column = Identifier(ids[0]);
      if (opt.owned_column != "none") {
        Fail(ErrorAt(o, sqlstate::kInvalidParameterValue, "invalid OWNED BY option")
                 .WithHint("Specify OWNED BY table.column or OWNED BY NONE."));
      }
    } else if (ids.size() == 2 || ids.size() == 3) {
      // schema.table.column keeps its schema (a written name, ast::QualifyName): pg_dump's
      // `OWNED BY public.t.c` under an empty search_path.
      opt.owned_table = ids.size() == 3 ? ast::QualifyName(Identifier(ids[0]), Identifier(ids[1]))
                                        : Identifier(ids[0]);
      opt.owned_column = Identifier(ids.back());
    } else {
      Fail(ErrorAt(o, sqlstate::kInvalidParameterValue, "invalid OWNED BY option")
               .WithHint("Specify OWNED BY table.column or OWNED BY NONE."));
    }
  }
  return opt;
}

std::unique_ptr<ast::SequenceStmt> Transformer::TransformCreateSequence(
    P::CreateSequenceStmtContext* ctx) {
  auto stmt = std::make_unique<ast::SequenceStmt>();
  QualifiedName(ctx->qualifiedName(), &stmt->schema, &stmt->name);
  stmt->name_loc = Loc(ctx->qualifiedName());
  stmt->if_not_exists = ctx->K_IF() != nullptr;
  stmt->temporary = ctx->K_TEMP() != nullptr || ctx->K_TEMPORARY() != nullptr;
  for (P::SequenceOptionContext* o : ctx->sequenceOption()) {
    stmt->options.push_back(TransformSequenceOption(o));
  }
  return stmt;
}

std::unique_ptr<ast::SequenceStmt> Transformer::TransformAlterSequence(
    P::AlterSequenceStmtContext* ctx) {
  auto stmt = std::make_unique<ast::SequenceStmt>();
  QualifiedName(ctx->qualifiedName(), &stmt->schema, &stmt->name);
  stmt->name_loc = Loc(ctx->qualifiedName());
  stmt->if_exists = ctx->K_IF() != nullptr;
  for (P::SequenceOptionContext* o : ctx->sequenceOption()) {
    stmt->options.push_back(TransformSequenceOption(o));
  }
  return stmt;
}

std::unique_ptr<ast::DropTableStmt> Transformer::TransformDropSequence(
    P::DropSequenceStmtContext* ctx) {
  auto stmt = std::make_unique<ast::DropTableStmt>();
  stmt->if_exists = ctx->K_IF() != nullptr;
  stmt->cascade = ctx->K_CASCADE() != nullptr;
  for (P::QualifiedNameContext* q : ctx->qualifiedName()) {
    std::string schema, name;
    QualifiedName(q, &schema, &name);
    stmt->tables.push_back(ast::QualifyName(schema, name));
    stmt->table_locs.push_back(Loc(q));
  }
  return stmt;
}

std::vector<ast::SelectItem> Transformer::TransformReturning(P::ReturningClauseContext* ctx) {
  std::vector<ast::SelectItem> items;
  if (ctx == nullptr) return items;
  for (P::SelectItemContext* item : ctx->selectItem()) items.push_back(TransformSelectItem(item));
  return items;
}

}  // namespace meridian::parser
