// LiteralRows: the rows of a multi-row INSERT ... VALUES that hold nothing but literals, read by
// a small scanner instead of ANTLR, whose lexer and parser cost about 15 us per row of a bulk
// load (tests/bench/RESULTS.md). The driver blanks those rows out of the text ANTLR reads and
// splices the scanner's rows in after the first one, so the AST is the one ANTLR would build.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "meridian/parser/ast.h"

namespace meridian::parser {

struct LiteralRows {
  // Bytes [begin, end) of the scanned text that the rows take, their separating commas
  // included: from just after the first row's ')' to just after the last literal row's ')'.
  size_t begin = 0;
  size_t end = 0;
  size_t begin_cp = 0;  // the same as code-point indexes
  size_t end_cp = 0;
  std::vector<std::vector<ast::ExprPtr>> rows;  // a null ExprPtr where DEFAULT is written
};

// When lexer_text (comments already blanked) starts with INSERT INTO name [AS alias]
// [(columns)] VALUES (first row), the rows after the first, up to the first one that is not
// made only of literals: numbers (a leading '-' folded in, as the transformer folds it),
// '...' strings, NULL, TRUE, FALSE and DEFAULT. Literals carry the locations ANTLR's tokens
// would give them. Anything unusual (other prefixes, E'' or dollar quotes in the first row)
// yields no rows: the whole request then goes through ANTLR.
LiteralRows FindLiteralRows(std::string_view lexer_text);

}  // namespace meridian::parser
