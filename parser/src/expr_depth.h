// Depth guard for built ASTs. Long operator chains (a+a+a+...) parse iteratively but produce
// deep left-leaning trees; every later recursive walk (binder, evaluator, even the destructor)
// would risk the stack, so statements deeper than kMaxExprDepth are rejected with 54001.
#pragma once

#include "meridian/parser/ast.h"

namespace meridian::parser {

inline constexpr int kMaxExprDepth = 1000;

// Depth of the deepest expression inside the statement (subqueries included); iterative.
int MaxExprDepth(ast::Statement& stmt);
int MaxExprDepth(ast::ExprPtr& expr);

// Frees the statement's expression trees without recursion (for trees that are too deep).
void DestroyIteratively(ast::Statement& stmt);
void DestroyIteratively(ast::ExprPtr& expr);

}  // namespace meridian::parser
