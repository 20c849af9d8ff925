// Entry points of parser/: SQL text in, AST out. ANTLR is an implementation detail of this
// module; nothing here exposes it. Thread-safe: each call builds its own lexer and parser.
#pragma once

#include <string_view>
#include <vector>

#include "meridian/parser/ast.h"
#include "meridian/status.h"

namespace meridian::parser {

// Parses one or more ';'-separated statements (empty statements are skipped; an empty or
// comment-only request gives an empty vector). A syntax error is SQLSTATE 42601 with message
// `syntax error at or near "<token>"` (or `at end of input`), the 1-based character position of
// the offending token in sql, and detail "line L, column C". Never throws.
Result<std::vector<ast::Statement>> Parse(std::string_view sql);

// Parse without the bulk INSERT shortcut (the literal rows of a multi-row INSERT ... VALUES read
// by a scanner instead of ANTLR): the whole request through ANTLR. The AST is the same; tests
// compare the two.
Result<std::vector<ast::Statement>> ParseWithoutShortcuts(std::string_view sql);

// Parses a single expression (used for DEFAULT expressions stored in the catalog).
Result<ast::ExprPtr> ParseExpression(std::string_view sql);

}  // namespace meridian::parser
