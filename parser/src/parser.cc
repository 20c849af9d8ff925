// Parse and ParseExpression: validate UTF-8, lex the whole request, pre-scan the tokens (lexical
// errors, nesting guard), parse with the classic two-stage strategy (fast SLL prediction with a
// bailing error strategy, then full LL reporting the first error), and transform to the AST.

#include "meridian/parser/parser.h"

#include <memory>
#include <optional>
#include <utility>

#include "ANTLRInputStream.h"
#include "BailErrorStrategy.h"
#include "CommonTokenStream.h"
#include "DefaultErrorStrategy.h"
#include "Exceptions.h"
#include "atn/ParserATNSimulator.h"
#include "atn/PredictionMode.h"
#include "expr_depth.h"
#include "literal_rows.h"
#include "meridian/parser/gen/MeridianSqlLexer.h"
#include "meridian/parser/gen/MeridianSqlParser.h"
#include "source_text.h"
#include "syntax_error.h"
#include "transformer.h"

namespace meridian::parser {
namespace {

// Everything one parse needs; built per call, so concurrent calls share nothing mutable except
// ANTLR's internally synchronized DFA cache.
struct ParseRun {
  explicit ParseRun(std::string_view text)
      : input(text.data(), text.size()), lexer(&input), tokens(&lexer), parser(&tokens) {
    lexer.removeErrorListeners();
    parser.removeErrorListeners();
  }

  antlr4::ANTLRInputStream input;
  gen::MeridianSqlLexer lexer;
  antlr4::CommonTokenStream tokens;
  gen::MeridianSqlParser parser;
  ThrowingErrorListener listener;
};

// Runs the start rule: SLL first; on failure, rewinds and reparses with full LL, where the first
// reported error ends the parse as a Status.
template <typename Ctx>
Status RunTwoStage(ParseRun& run, Ctx* (gen::MeridianSqlParser::*rule)(), Ctx** tree) {
  auto* interpreter = run.parser.getInterpreter<antlr4::atn::ParserATNSimulator>();
  interpreter->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  run.parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  try {
    *tree = (run.parser.*rule)();
    return Status::Ok();
  } catch (const antlr4::ParseCancellationException&) {
    // Either a real syntax error or an SLL limitation: decide with full LL below.
  }
  run.tokens.seek(0);
  run.parser.reset();
  interpreter->setPredictionMode(antlr4::atn::PredictionMode::LL);
  run.parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
  run.parser.addErrorListener(&run.listener);
  try {
    *tree = (run.parser.*rule)();
  } catch (const SyntaxErrorFound& found) {
    return found.status;
  }
  return Status::Ok();
}

Status TooDeep(const ast::Location& loc) {
  return Status::Error("54001", "statement is too complex")
      .WithPosition(loc.position)
      .WithDetail("expression nesting exceeds " + std::to_string(kMaxExprDepth) + " levels")
      .WithHint("Simplify the statement.");
}

// A request that is one bare transaction keyword at its start (BEGIN, COMMIT, END, ROLLBACK,
// ABORT in any case), then only blanks and at most one ';': libpq's PQexec("BEGIN") and
// ("COMMIT") around every transaction of a client, which ANTLR would lex and parse at the cost
// of a short SELECT. The statement ANTLR would give; nullopt for anything else.
std::optional<ast::Statement> BareTransactionKeyword(std::string_view sql) {
  size_t n = 0;
  while (n < sql.size() && ((sql[n] >= 'A' && sql[n] <= 'Z') || (sql[n] >= 'a' && sql[n] <= 'z'))) {
    ++n;
  }
  const std::string_view word = sql.substr(0, n);
  bool semicolon = false;
  for (char c : sql.substr(n)) {
    if (c == ';' && !semicolon) {
      semicolon = true;
    } else if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\f' && c != '\v') {
      return std::nullopt;  // more than the keyword: ANTLR reads it
    }
  }
  using Action = ast::TransactionStmt::Action;
  const auto is = [word](std::string_view upper) {
    if (word.size() != upper.size()) return false;
    for (size_t i = 0; i < word.size(); ++i) {
      if ((word[i] & ~0x20) != upper[i]) return false;  // ASCII letters only (checked above)
    }
    return true;
  };
  Action action;
  if (is("BEGIN")) {
    action = Action::kBegin;
  } else if (is("COMMIT") || is("END")) {
    action = Action::kCommit;
  } else if (is("ROLLBACK") || is("ABORT")) {
    action = Action::kRollback;
  } else {
    return std::nullopt;
  }
  ast::Statement stmt;
  stmt.kind = ast::StatementKind::kTransaction;
  stmt.loc = {1, 1, 1};
  stmt.text = std::string(word);
  stmt.transaction = std::make_unique<ast::TransactionStmt>();
  stmt.transaction->action = action;
  return stmt;
}

Result<std::vector<ast::Statement>> ParseImpl(std::string_view sql, bool shortcuts) {
  if (shortcuts) {
    if (std::optional<ast::Statement> bare = BareTransactionKeyword(sql)) {
      std::vector<ast::Statement> statements;
      statements.push_back(std::move(bare).value());
      return statements;
    }
  }
  MERIDIAN_ASSIGN_OR_RETURN(SourceText src, SourceText::Make(sql));
  // A bulk INSERT's literal rows after the first: ANTLR reads blanks in their place.
  LiteralRows literal_rows;
  if (shortcuts) literal_rows = FindLiteralRows(src.lexer_text());
  if (!literal_rows.rows.empty()) {
    // When only blanks and one ';' follow them, ANTLR need not even skip them.
    const std::string_view rest = std::string_view(src.lexer_text()).substr(literal_rows.end);
    const size_t semicolon = rest.find_first_not_of(" \t\r\n\f\v");
    if (semicolon == std::string_view::npos ||
        (rest[semicolon] == ';' &&
         rest.find_first_not_of(" \t\r\n\f\v", semicolon + 1) == std::string_view::npos)) {
      src.TruncateLexerText(literal_rows.begin);
    } else {
      src.BlankLexerBytes(literal_rows.begin, literal_rows.end);
    }
  }
  ParseRun run(src.lexer_text());
  run.tokens.fill();
  MERIDIAN_RETURN_IF_ERROR(PrescanTokens(run.tokens.getTokens()));

  gen::MeridianSqlParser::ScriptContext* tree = nullptr;
  MERIDIAN_RETURN_IF_ERROR(RunTwoStage(run, &gen::MeridianSqlParser::script, &tree));

  Transformer transformer(src);
  std::vector<ast::Statement> statements;
  Status failure;
  for (gen::MeridianSqlParser::StatementContext* ctx : tree->statement()) {
    statements.push_back(transformer.TransformStatement(ctx));
    statements.back().notices = transformer.TakeNotices();
    if (!transformer.status().ok()) {
      failure = transformer.status();
    } else if (MaxExprDepth(statements.back()) > kMaxExprDepth) {
      failure = TooDeep(statements.back().loc);
    }
    if (!failure.ok()) break;
  }
  if (failure.ok() && !literal_rows.rows.empty()) {
    // The rows go back after the first one, unless what is left of the request was not a bare
    // VALUES list (VALUES ... UNION ..., ORDER BY, LIMIT): then ANTLR parses it all.
    ast::InsertStmt* insert = statements.empty() ? nullptr : statements[0].insert.get();
    if (insert == nullptr || insert->values.empty()) {
      for (ast::Statement& stmt : statements) DestroyIteratively(stmt);
      return ParseImpl(sql, false);
    }
    // A statement that ended with its first row ends with the last literal row instead.
    ast::Statement& first = statements[0];
    const size_t start = first.loc.position - 1;
    if (src.Slice(start, literal_rows.begin_cp) == first.text) {
      first.text = std::string(src.Slice(start, literal_rows.end_cp));
    }
    insert->values.insert(insert->values.begin() + 1,
                          std::make_move_iterator(literal_rows.rows.begin()),
                          std::make_move_iterator(literal_rows.rows.end()));
  }
  if (failure.ok()) return statements;
  for (ast::Statement& stmt : statements) DestroyIteratively(stmt);
  return failure;
}

Result<ast::ExprPtr> ParseExpressionImpl(std::string_view sql) {
  MERIDIAN_ASSIGN_OR_RETURN(SourceText src, SourceText::Make(sql));
  ParseRun run(src.lexer_text());
  run.tokens.fill();
  MERIDIAN_RETURN_IF_ERROR(PrescanTokens(run.tokens.getTokens()));

  gen::MeridianSqlParser::StandaloneExprContext* tree = nullptr;
  MERIDIAN_RETURN_IF_ERROR(RunTwoStage(run, &gen::MeridianSqlParser::standaloneExpr, &tree));

  Transformer transformer(src);
  ast::ExprPtr expr = transformer.TransformExpr(tree->expr());
  Status failure = transformer.status();
  if (failure.ok() && MaxExprDepth(expr) > kMaxExprDepth) failure = TooDeep(expr->loc);
  if (failure.ok()) return expr;
  DestroyIteratively(expr);
  return failure;
}

Status Unexpected(const char* what) {
  return Status::Error(sqlstate::kSyntaxError, std::string("syntax error: ") + what);
}

}  // namespace

Result<std::vector<ast::Statement>> Parse(std::string_view sql) {
  try {
    return ParseImpl(sql, true);
  } catch (const std::exception& e) {
    return Unexpected(e.what());
  } catch (...) {
    return Unexpected("unexpected parser failure");
  }
}

Result<std::vector<ast::Statement>> ParseWithoutShortcuts(std::string_view sql) {
  try {
    return ParseImpl(sql, false);
  } catch (const std::exception& e) {
    return Unexpected(e.what());
  } catch (...) {
    return Unexpected("unexpected parser failure");
  }
}

Result<ast::ExprPtr> ParseExpression(std::string_view sql) {
  try {
    return ParseExpressionImpl(sql);
  } catch (const std::exception& e) {
    return Unexpected(e.what());
  } catch (...) {
    return Unexpected("unexpected parser failure");
  }
}

}  // namespace meridian::parser
