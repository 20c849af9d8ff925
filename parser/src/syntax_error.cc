// Builds PostgreSQL-style syntax errors from ANTLR tokens, and the pre-parse token scan
// (unterminated literals, nesting depth guard). See syntax_error.h.

#include "syntax_error.h"

#include "meridian/parser/gen/MeridianSqlLexer.h"

namespace meridian::parser {

using Lexer = gen::MeridianSqlLexer;

ast::Location TokenLocation(const antlr4::Token& token) {
  ast::Location loc;
  loc.position = static_cast<uint32_t>(token.getStartIndex() + 1);
  loc.line = static_cast<uint32_t>(token.getLine());
  loc.column = static_cast<uint32_t>(token.getCharPositionInLine() + 1);
  return loc;
}

Status ErrorAtToken(const antlr4::Token& token, std::string_view what, const char* sqlstate) {
  std::string message(what);
  if (token.getType() == antlr4::Token::EOF) {
    message += " at end of input";
  } else {
    message += " at or near \"" + token.getText() + "\"";
  }
  ast::Location loc = TokenLocation(token);
  return Status::Error(sqlstate, std::move(message))
      .WithPosition(loc.position)
      .WithDetail("line " + std::to_string(loc.line) + ", column " + std::to_string(loc.column));
}

void ThrowingErrorListener::syntaxError(antlr4::Recognizer* /*recognizer*/,
                                        antlr4::Token* offending_symbol, size_t line,
                                        size_t char_position_in_line, const std::string& /*msg*/,
                                        std::exception_ptr /*e*/) {
  if (offending_symbol != nullptr)
    throw SyntaxErrorFound{ErrorAtToken(*offending_symbol, "syntax error")};
  throw SyntaxErrorFound{Status::Error(sqlstate::kSyntaxError, "syntax error")
                             .WithDetail("line " + std::to_string(line) + ", column " +
                                         std::to_string(char_position_in_line + 1))};
}

Status PrescanTokens(const std::vector<antlr4::Token*>& tokens) {
  int parens = 0;
  int cases = 0;
  int prefix_run = 0;
  for (const antlr4::Token* token : tokens) {
    switch (token->getType()) {
      case Lexer::UNTERMINATED_STRING:
        return ErrorAtToken(*token, "unterminated quoted string");
      case Lexer::UNTERMINATED_DOLLAR_STRING:
        return ErrorAtToken(*token, "unterminated dollar-quoted string");
      case Lexer::UNTERMINATED_QUOTED_IDENTIFIER:
        return ErrorAtToken(*token, "unterminated quoted identifier");
      case Lexer::LPAREN:
      case Lexer::LBRACKET:
        ++parens;
        break;
      case Lexer::RBRACKET:
      case Lexer::RPAREN:
        if (parens > 0) --parens;
        break;
      case Lexer::K_CASE:
        ++cases;
        break;
      case Lexer::K_END:
        if (cases > 0) --cases;
        break;
      default:
        break;
    }
    int type = static_cast<int>(token->getType());
    prefix_run =
        (type == Lexer::MINUS || type == Lexer::PLUS || type == Lexer::K_NOT) ? prefix_run + 1 : 0;
    if (parens + cases + prefix_run > kMaxNestingDepth) {
      ast::Location loc = TokenLocation(*token);
      return Status::Error("54001", "statement is too complex")
          .WithPosition(loc.position)
          .WithDetail("nesting of parentheses, CASE and prefix operators exceeds " +
                      std::to_string(kMaxNestingDepth) + " levels")
          .WithHint("Simplify the statement.");
    }
  }
  return Status::Ok();
}

}  // namespace meridian::parser
