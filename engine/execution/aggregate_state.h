// An aggregate's running state and its steps (COUNT, SUM, AVG, MIN, MAX, string_agg,
// array_agg, with DISTINCT, FILTER and ORDER BY inside the call): a group's state in
// HashAggregateOp, a window frame's in WindowOp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "binder/bound_expr.h"
#include "execution/operator.h"
#include "meridian/value.h"

namespace meridian::exec {

struct AggState {
  int64_t count = 0;
  int64_t isum = 0;   // SUM(smallint/integer) → bigint
  __int128 wide = 0;  // integer inputs of a numeric SUM/AVG
  Numeric nsum;       // numeric inputs of a numeric SUM/AVG
  float fsum = 0;     // SUM(real) → real, summed in float as PostgreSQL's float4pl
  double dsum = 0;
  // The statistical aggregates: integer inputs' sum of squares (wide holds the sum), numeric
  // inputs' (nsum the sum); over doubles PostgreSQL's Youngs-Cramer sums (dsum is Sx; Y's
  // sums for the two-argument ones).
  __int128 wide2 = 0;
  Numeric nsum2;
  double sxx = 0, sy = 0, syy = 0, sxy = 0;
  Value best;  // MIN/MAX; SUM/AVG(interval): the sum
  // The hypothetical-set aggregates use isum for the rows sorting before the hypothetical row
  // and wide for its peers; extra->items holds the direct arguments, extra->seen the distinct
  // keys of the rows before it (dense_rank).
  struct Extra {
    std::string text;               // string_agg
    std::vector<Value> items;       // array_agg (NULLs included), string_agg DISTINCT
    std::vector<Value> delimiters;  // string_agg DISTINCT/ORDER BY: each item's delimiter
    std::vector<Value> keys;        // ORDER BY in the call: each item's keys, agg_order.size() each
    std::unordered_set<std::string> seen;  // DISTINCT arguments
  };
  std::unique_ptr<Extra> extra;  // made by string_agg, array_agg, DISTINCT, ordered-set and
                                 // hypothetical-set aggregates only
};

// Adds the row in ctx.row to st: agg is a kAggregate call (or a kWindow call of an aggregate),
// its argument children[0] (string_agg's delimiter children[1]), ORDER BY keys and FILTER
// condition (bound_expr.h) evaluated in ctx. A row whose FILTER is not true is skipped, so are
// NULL arguments (array_agg keeps them); DISTINCT keeps the first of equal values; string_agg
// and array_agg with ORDER BY keep each item's keys for FinishAggregate to sort by.
Status AccumulateAggregate(const BoundExpr& agg, const EvalContext& ctx, AggState* st);
// The aggregate's value for st (NULL for no rows, except count's 0); st is unchanged.
Result<Value> FinishAggregate(const BoundExpr& agg, const AggState& st);

}  // namespace meridian::exec
