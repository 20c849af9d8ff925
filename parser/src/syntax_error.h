// Syntax errors as Status: the ANTLR error listener that stops at the first error, and the token
// pre-scan that reports lexical errors (unterminated strings and quoted identifiers) and
// rejects requests nested too deeply to parse safely (54001), all before the parser runs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "BaseErrorListener.h"
#include "Token.h"
#include "meridian/parser/ast.h"
#include "meridian/status.h"

namespace meridian::parser {

// Deepest nesting of parentheses, CASE ... END and prefix operators accepted in one request.
inline constexpr int kMaxNestingDepth = 200;

ast::Location TokenLocation(const antlr4::Token& token);

// 42601 `<what> at or near "<token>"` (or `<what> at end of input`), with the token's position
// and detail "line L, column C".
Status ErrorAtToken(const antlr4::Token& token, std::string_view what,
                    const char* sqlstate = sqlstate::kSyntaxError);

// Thrown by ThrowingErrorListener through the generated parser; caught by the driver.
struct SyntaxErrorFound {
  Status status;
};

// Turns the first error the parser reports into SyntaxErrorFound, which ends the parse.
class ThrowingErrorListener : public antlr4::BaseErrorListener {
 public:
  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending_symbol, size_t line,
                   size_t char_position_in_line, const std::string& msg,
                   std::exception_ptr e) override;
};

// Lexical checks and the nesting-depth guard over the whole token stream (EOF included).
Status PrescanTokens(const std::vector<antlr4::Token*>& tokens);

}  // namespace meridian::parser
