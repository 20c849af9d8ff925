// A bound expression back to SQL text, as PostgreSQL's ruleutils prints a stored expression
// (pretty or not): what psql's \d shows for CHECK constraints and column defaults.
// Constants carry their type label where PostgreSQL's do ('x'::text, '-1'::integer,
// 0::numeric), casts the binder added are shown (j::numeric), parentheses only where
// precedence needs them ((a + b) > 0, a > 0 AND b < 0 OR c IS NULL), x IN (1, 2) as
// x = ANY (ARRAY[1, 2]). Deviations come from Meridian's own coercions (a character(n) column
// compared as text shows code::text where PostgreSQL keeps bpchar).
#pragma once

#include <string>

#include "binder/bound_expr.h"

namespace meridian::exec {

// pretty: pg_get_*def(..., true)'s layout; otherwise PostgreSQL's plain one, where every
// operator expression is parenthesized ((y > 0)) and casts read (j)::numeric.
std::string DeparseExpr(const BoundExpr& e, bool pretty);

}  // namespace meridian::exec
