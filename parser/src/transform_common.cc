// Helpers shared by every transform_*.cc file: identifiers (case folding, quoted identifiers),
// locations, exact source substrings, error recording, and the statement dispatch.

#include <algorithm>
#include <cctype>

#include "syntax_error.h"
#include "transformer.h"

namespace meridian::parser {

namespace {

std::string LowerAscii(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// PostgreSQL's NAMEDATALEN - 1: longer identifiers are cut to this many bytes, at a character
// boundary, as its scanner does (truncate_identifier).
constexpr size_t kMaxIdentifierBytes = 63;

// How much of a cut identifier its NOTICE quotes (PostgreSQL quotes all of it; a 1 MB name would
// make a 1 MB notice).
constexpr size_t kNoticeQuoteBytes = 256;

}  // namespace

std::string Transformer::Truncated(std::string s) {
  if (s.size() <= kMaxIdentifierBytes) return s;
  size_t n = kMaxIdentifierBytes;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  size_t q = std::min(s.size(), kNoticeQuoteBytes);
  while (q > 0 && q < s.size() && (static_cast<unsigned char>(s[q]) & 0xC0) == 0x80) --q;
  std::string quoted = s.substr(0, q) + (q < s.size() ? "..." : "");
  s.resize(n);
  notices_.push_back("identifier \"" + quoted + "\" will be truncated to \"" + s + "\"");
  return s;
}

std::string Transformer::Identifier(P::IdentifierContext* ctx) {
  antlr4::Token* token = ctx->getStart();
  if (token->getType() == P::QUOTED_IDENTIFIER) {
    std::string text = token->getText();
    std::string out;
    out.reserve(text.size());
    for (size_t i = 1; i + 1 < text.size(); ++i) {
      out += text[i];
      if (text[i] == '"') ++i;  // "" stands for one "
    }
    if (out.empty()) {
      Fail(ErrorAtToken(*token, "zero-length delimited identifier"));
    }
    return Truncated(std::move(out));
  }
  return Truncated(LowerAscii(token->getText()));
}

std::string Transformer::ColumnLabel(P::ColumnLabelContext* ctx) {
  if (ctx->identifier() != nullptr) return Identifier(ctx->identifier());
  return LowerAscii(ctx->getText());
}

void Transformer::QualifiedName(P::QualifiedNameContext* ctx, std::string* schema,
                                std::string* name) {
  std::vector<P::IdentifierContext*> ids = ctx->identifier();
  if (ids.size() == 2) {
    *schema = Identifier(ids[0]);
    *name = Identifier(ids[1]);
  } else {
    schema->clear();
    *name = Identifier(ids[0]);
  }
}

std::string Transformer::RelationName(P::QualifiedNameContext* ctx) {
  std::string schema, name;
  QualifiedName(ctx, &schema, &name);
  if (schema == "pg_catalog" || schema == "information_schema") {
    Fail(ErrorAt(ctx, "42501", "permission denied for schema " + schema));
  }
  return ast::QualifyName(schema, name);
}

std::unique_ptr<ast::SchemaStmt> Transformer::TransformSchemaStmt(P::StatementContext* ctx,
                                                                  ast::StatementKind* kind) {
  auto out = std::make_unique<ast::SchemaStmt>();
  if (auto* s = ctx->createSchemaStmt()) {
    *kind = ast::StatementKind::kCreateSchema;
    out->missing_ok = s->K_EXISTS() != nullptr;
    if (s->role != nullptr) out->role = Identifier(s->role);
    out->names.push_back(s->name != nullptr ? Identifier(s->name) : out->role);
    out->locs.push_back(Loc(s->name != nullptr ? s->name : s->role));
  } else if (auto* s = ctx->dropSchemaStmt()) {
    *kind = ast::StatementKind::kDropSchema;
    out->missing_ok = s->K_EXISTS() != nullptr;
    out->cascade = s->K_CASCADE() != nullptr;
    for (P::IdentifierContext* id : s->identifier()) {
      out->names.push_back(Identifier(id));
      out->locs.push_back(Loc(id));
    }
  } else if (auto* s = ctx->alterSchemaStmt()) {
    *kind = ast::StatementKind::kAlterSchema;
    out->names.push_back(Identifier(s->from));
    out->locs.push_back(Loc(s->from));
    out->new_name = Identifier(s->to);
  }
  return out;
}

ast::OnCommit Transformer::TransformOnCommit(P::OnCommitClauseContext* ctx, bool temp) {
  if (ctx == nullptr) return temp ? ast::OnCommit::kPreserveRows : ast::OnCommit::kNone;
  if (!temp) {
    Fail(ErrorAt(ctx, "42P16", "ON COMMIT can only be used on temporary tables"));
  }
  if (ctx->K_PRESERVE() != nullptr) return ast::OnCommit::kPreserveRows;
  if (ctx->K_DELETE() != nullptr) return ast::OnCommit::kDeleteRows;
  return ast::OnCommit::kDrop;
}

std::unique_ptr<ast::AnalyzeStmt> Transformer::TransformVacuum(P::VacuumStmtContext* ctx) {
  auto stmt = std::make_unique<ast::AnalyzeStmt>();
  stmt->vacuum = true;
  stmt->analyze = ctx->K_ANALYZE() != nullptr;
  for (P::VacuumOptionContext* option : ctx->vacuumOption()) {
    const std::string name = LowerAscii(option->children[0]->getText());
    std::string value = option->children.size() > 1 ? LowerAscii(option->children[1]->getText())
                                                    : std::string("true");
    const bool off = value == "false" || value == "off" || value == "0";
    // PostgreSQL 15's VACUUM options; each is accepted, only ANALYZE changes what runs.
    static const char* const kOptions[] = {
        "analyze",       "full",          "verbose",  "freeze",   "skip_locked",
        "index_cleanup", "process_toast", "truncate", "parallel", "disable_page_skipping"};
    if (std::find(std::begin(kOptions), std::end(kOptions), name) == std::end(kOptions)) {
      Fail(ErrorAt(option, sqlstate::kSyntaxError, "unrecognized VACUUM option \"" + name + "\""));
    }
    if (name == "analyze") stmt->analyze = !off;
  }
  for (P::QualifiedNameContext* name : ctx->qualifiedName()) {
    stmt->tables.push_back(RelationName(name));
    stmt->table_locs.push_back(Loc(name));
  }
  return stmt;
}

ast::Location Transformer::Loc(antlr4::ParserRuleContext* ctx) const {
  return TokenLocation(*ctx->getStart());
}

ast::Location Transformer::Loc(antlr4::tree::TerminalNode* node) const {
  return TokenLocation(*node->getSymbol());
}

std::string_view Transformer::SourceOf(antlr4::ParserRuleContext* ctx) const {
  return src_.Slice(ctx->getStart()->getStartIndex(), ctx->getStop()->getStopIndex() + 1);
}

void Transformer::Fail(Status status) {
  if (status_.ok()) status_ = std::move(status);
}

Status Transformer::ErrorAt(antlr4::ParserRuleContext* ctx, const char* sqlstate,
                            std::string message) const {
  ast::Location loc = Loc(ctx);
  return Status::Error(sqlstate, std::move(message))
      .WithPosition(loc.position)
      .WithDetail("line " + std::to_string(loc.line) + ", column " + std::to_string(loc.column));
}

ast::Statement Transformer::TransformStatement(P::StatementContext* ctx) {
  ast::Statement stmt;
  stmt.loc = Loc(ctx);
  stmt.text = std::string(SourceOf(ctx));
  top_with_ = TopWith(ctx->selectStmt(), ctx->insertStmt(), ctx->updateStmt(), ctx->deleteStmt());
  if (auto* s = ctx->selectStmt()) {
    stmt.kind = ast::StatementKind::kSelect;
    stmt.select = TransformSelect(s);
  } else if (auto* s = ctx->insertStmt()) {
    stmt.kind = ast::StatementKind::kInsert;
    stmt.insert = TransformInsert(s);
  } else if (auto* s = ctx->updateStmt()) {
    stmt.kind = ast::StatementKind::kUpdate;
    stmt.update = TransformUpdate(s);
  } else if (auto* s = ctx->deleteStmt()) {
    stmt.kind = ast::StatementKind::kDelete;
    stmt.del = TransformDelete(s);
  } else if (auto* s = ctx->createTableStmt()) {
    stmt.kind = ast::StatementKind::kCreateTable;
    stmt.create_table = TransformCreateTable(s);
  } else if (auto* s = ctx->createTableAsStmt()) {
    stmt.kind = ast::StatementKind::kCreateTableAs;
    stmt.create_table_as = TransformCreateTableAs(s);
  } else if (auto* s = ctx->alterTableStmt()) {
    stmt.kind = ast::StatementKind::kAlterTable;
    stmt.alter_table = TransformAlterTable(s);
  } else if (auto* s = ctx->dropTableStmt()) {
    stmt.kind = ast::StatementKind::kDropTable;
    stmt.drop_table = TransformDropTable(s);
  } else if (auto* s = ctx->createViewStmt()) {
    stmt.kind = ast::StatementKind::kCreateView;
    stmt.create_view = TransformCreateView(s);
  } else if (auto* s = ctx->dropViewStmt()) {
    stmt.kind = ast::StatementKind::kDropView;
    stmt.drop_table = TransformDropView(s);
  } else if (ctx->createSchemaStmt() != nullptr || ctx->dropSchemaStmt() != nullptr ||
             ctx->alterSchemaStmt() != nullptr) {
    stmt.schema = TransformSchemaStmt(ctx, &stmt.kind);
  } else if (auto* s = ctx->truncateStmt()) {
    stmt.kind = ast::StatementKind::kTruncate;
    stmt.truncate = std::make_unique<ast::TruncateStmt>();
    for (P::QualifiedNameContext* name : s->qualifiedName()) {
      stmt.truncate->tables.push_back(RelationName(name));
      stmt.truncate->table_locs.push_back(Loc(name));
    }
  } else if (auto* s = ctx->lockStmt()) {
    stmt.kind = ast::StatementKind::kLock;
    stmt.lock = std::make_unique<ast::LockStmt>();
    for (P::LockTargetContext* target : s->lockTarget()) {
      stmt.lock->tables.push_back(RelationName(target->qualifiedName()));
      stmt.lock->table_locs.push_back(Loc(target->qualifiedName()));
    }
    if (P::LockModeContext* mode = s->lockMode()) {
      std::string words;
      for (antlr4::tree::ParseTree* child : mode->children) {
        words += (words.empty() ? "" : " ") + child->getText();
      }
      for (char& c : words) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      stmt.lock->mode = std::move(words);
    }
    stmt.lock->nowait = s->K_NOWAIT() != nullptr;
  } else if (auto* s = ctx->createIndexStmt()) {
    stmt.kind = ast::StatementKind::kCreateIndex;
    stmt.create_index = TransformCreateIndex(s);
  } else if (auto* s = ctx->dropIndexStmt()) {
    stmt.kind = ast::StatementKind::kDropIndex;
    stmt.drop_index = TransformDropIndex(s);
  } else if (auto* s = ctx->explainStmt()) {
    stmt.kind = ast::StatementKind::kExplain;
    stmt.explain_analyze = s->K_ANALYZE() != nullptr;
    for (P::ExplainOptionContext* option : s->explainOption()) {
      const std::string name = LowerAscii(option->children[0]->getText());
      const std::string value = option->children.size() > 1
                                    ? LowerAscii(option->children[1]->getText())
                                    : std::string("true");
      const bool off = value == "false" || value == "off" || value == "0";
      if (name == "format") {
        if (value != "text") {
          Fail(ErrorAt(option, sqlstate::kFeatureNotSupported,
                       "EXPLAIN FORMAT " + value + " is not supported yet"));
        }
      } else if (name == "analyze") {
        stmt.explain_analyze = !off;
      } else if (name == "costs") {
        stmt.explain_costs = !off;
      } else if (name == "timing") {
        stmt.explain_timing = !off;
      } else if (name == "summary") {
        stmt.explain_summary = !off;
      } else if (name != "verbose" && name != "buffers" && name != "wal" && name != "settings") {
        Fail(ErrorAt(option, sqlstate::kSyntaxError,
                     "unrecognized EXPLAIN option \"" + name + "\""));
      }
    }
    stmt.explained = std::make_unique<ast::Statement>(TransformStatement(s->statement()));
    if (stmt.explained->kind == ast::StatementKind::kExplain) {
      Fail(ErrorAt(s->statement(), sqlstate::kSyntaxError, "syntax error at or near \"EXPLAIN\""));
    } else if (stmt.explained->kind == ast::StatementKind::kTransaction ||
               stmt.explained->kind == ast::StatementKind::kPrepare ||
               stmt.explained->kind == ast::StatementKind::kDeallocate) {
      // PostgreSQL's grammar cannot EXPLAIN a transaction statement, PREPARE or DEALLOCATE.
      Fail(ErrorAtToken(*s->statement()->getStart(), "syntax error"));
    }
  } else if (auto* s = ctx->analyzeStmt()) {
    stmt.kind = ast::StatementKind::kAnalyze;
    stmt.analyze = std::make_unique<ast::AnalyzeStmt>();
    for (P::QualifiedNameContext* name : s->qualifiedName()) {
      stmt.analyze->tables.push_back(RelationName(name));
      stmt.analyze->table_locs.push_back(Loc(name));
    }
  } else if (auto* s = ctx->vacuumStmt()) {
    stmt.kind = ast::StatementKind::kAnalyze;
    stmt.analyze = TransformVacuum(s);
  } else if (auto* s = ctx->setStmt()) {
    stmt.kind = ast::StatementKind::kSet;
    stmt.variable = TransformSet(s);
  } else if (auto* s = ctx->showStmt()) {
    stmt.kind = ast::StatementKind::kShow;
    stmt.variable =
        TransformShowOrReset(s->K_ALL(), s->K_TIME(), s->K_TRANSACTION(), s->configName());
  } else if (auto* s = ctx->resetStmt()) {
    stmt.kind = ast::StatementKind::kReset;
    stmt.variable =
        TransformShowOrReset(s->K_ALL(), s->K_TIME(), s->K_TRANSACTION(), s->configName());
  } else if (auto* s = ctx->copyStmt()) {
    stmt.kind = ast::StatementKind::kCopy;
    stmt.copy = TransformCopy(s);
  } else if (auto* s = ctx->transactionStmt()) {
    stmt.kind = ast::StatementKind::kTransaction;
    stmt.transaction = TransformTransaction(s);
  } else if (auto* s = ctx->prepareStmt()) {
    stmt.kind = ast::StatementKind::kPrepare;
    stmt.prepare = TransformPrepare(s);
  } else if (auto* s = ctx->executeStmt()) {
    stmt.kind = ast::StatementKind::kExecute;
    stmt.execute = TransformExecute(s);
  } else if (auto* s = ctx->deallocateStmt()) {
    stmt.kind = ast::StatementKind::kDeallocate;
    stmt.deallocate = TransformDeallocate(s);
  } else if (auto* s = ctx->createSequenceStmt()) {
    stmt.kind = ast::StatementKind::kCreateSequence;
    stmt.sequence = TransformCreateSequence(s);
  } else if (auto* s = ctx->alterSequenceStmt()) {
    stmt.kind = ast::StatementKind::kAlterSequence;
    stmt.sequence = TransformAlterSequence(s);
  } else if (auto* s = ctx->dropSequenceStmt()) {
    stmt.kind = ast::StatementKind::kDropSequence;
    stmt.drop_table = TransformDropSequence(s);
  }
  return stmt;
}

}  // namespace meridian::parser
