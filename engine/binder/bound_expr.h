// Bound expressions: the binder's output for one SQL expression, with every name resolved to a
// column slot and every node typed. Evaluation (evaluator.h) walks this tree. Column slots are
// (depth, index): depth 0 is the row of the operator evaluating the expression, depth d > 0 the
// row of the d-th enclosing query (correlated subqueries).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "meridian/parser/ast.h"
#include "meridian/value.h"

namespace meridian::exec {

class Operator;
struct PlanNode;
struct BoundExpr;
using BoundExprPtr = std::unique_ptr<BoundExpr>;

enum class BoundKind {
  kConst,            // value
  kColumn,           // depth, index; name for messages
  kUnary,            // unary_op, children[0]
  kBinary,           // binary_op, children[0..1] (AND/OR, arithmetic, comparison, LIKE, ||)
  kIsNull,           // children[0]; negated = IS NOT NULL
  kFunction,         // func, children
  kAggregate,        // agg, children[0] unless star; distinct
  kCast,             // children[0] to type (explicit: varchar(n) truncates)
  kCase,             // has_operand, WHEN/THEN pairs, has_else (as ast::Expr)
  kInList,           // children[0] [NOT] IN (children[1..])
  kSubquery,         // scalar subquery
  kExists,           // [NOT] EXISTS
  kInSubquery,       // children[0] binary_op ANY|ALL (subquery); IN is = ANY, negated: NOT IN
  kParam,            // $n: index = n - 1; type declared or inferred (Unknown until inferred)
  kArray,            // ARRAY[children...], or ARRAY(subquery) when subquery is set
  kQuantifiedArray,  // children[0] binary_op ANY|ALL (children[1], an array); all as above
  kSubscript,        // children[0][children[1]]; a slice [children[1]:children[2]] if 3
  kWindow,           // f(args) OVER (...): window; children = args, PARTITION BY, ORDER BY
};

enum class Func {
  kAbs,
  kCoalesce,
  kNullIf,
  kLength,
  kPgTypeof,  // value holds the argument's type name; the argument is never evaluated
  kLower,
  kUpper,
  // ROW(a, b, ...) and a whole-row reference `t`: a record of the children, BoundExpr::shape
  // naming and typing its fields (never folded to NULL: a row of NULLs is a value).
  kRow,
  // (r).field of a record whose shape the binder knows but whose ROW(...) it cannot reach (a
  // derived table's column): children the record and the field's number (an integer
  // constant, from 0); name the field's. NULL for a NULL record.
  kRecordField,
  // Math and string functions (bind_function.cc, evaluator.cc).
  kRound,
  kRoundTo,  // round(x, n): decimal rounding, half away from zero (PostgreSQL's numeric rule)
  kTrunc,
  kTruncTo,  // trunc(x, n)
  kFloor,
  kCeil,
  kSign,
  kSqrt,
  kPower,
  kMod,
  kGreatest,
  kLeast,
  kSubstring,
  kSubstringRegex,  // substring(s FROM pattern): PostgreSQL's POSIX regex form
  kStrpos,
  kBTrim,
  kLTrim,
  kRTrim,
  kReplace,
  kConcat,
  kLeft,
  kRight,
  kRepeat,
  kLPad,
  kRPad,
  kReverse,
  kInitcap,
  kSplitPart,
  kTranslate,
  kLikeEscape,  // x LIKE p ESCAPE e is x ~~ like_escape(p, e)
  // Array functions (bind_array.cc, array_functions.cc): kArrayToString to kStringToArray.
  kArrayToString,
  kArrayUpper,
  kArrayLower,
  kArrayLength,
  kCardinality,
  kArrayCat,      // array_cat and array || array
  kArrayAppend,   // array_append and array || element
  kArrayPrepend,  // array_prepend and element || array
  kArrayPosition,
  kStringToArray,
  // col[i] = v / col[i:j] = array in UPDATE: children array, i, [j,] value; the new array
  // (NULL-padded past the end; 0A000 where the lower bound would not be 1).
  kArraySet,
  // Points as float8[] for R-tree nearest-neighbour order (PostgreSQL's cube extension names):
  // cube(float8[]) and cube_distance(a, b), Euclidean.
  kCube,
  kCubeDistance,
  // Set-returning functions: FROM items (FunctionScanOp) and the select list (ProjectSetOp).
  kUnnest,
  kGenerateSeries,
  kGenerateSubscripts,  // generate_subscripts(array, dim [, reverse]): set-returning too
  // Session and system-catalog functions (system_functions.cc); every one from kVersion on.
  kVersion,
  kCurrentSetting,
  kSetConfig,
  kCurrentSchema,
  kCurrentSchemas,
  kCurrentDatabase,
  kCurrentUser,
  kSessionUser,
  kBackendPid,
  kUserById,
  kTableIsVisible,
  kRelationIsPublishable,  // pg_relation_is_publishable: a user table
  kFormatType,
  kIndexDef,
  kConstraintDef,
  kViewDef,
  kGetExpr,
  kEncodingToChar,
  kAlwaysNull,   // obj_description, col_description: no comments are stored
  kAlwaysTrue,   // pg_type_is_visible
  kAlwaysFalse,  // pg_is_in_recovery: never a standby
  kToRegClass,
  kToRegType,
  kRegClassIn,   // text → oid of a relation (::regclass of a string)
  kRegClassOut,  // oid → relation name (::regclass of an oid)
  kRegTypeIn,
  kRegTypeOut,
  kRegProcOut,  // function oid → its number, '-' for 0 (pg_proc lists no functions)
  kRegNamespaceIn,
  kRegNamespaceOut,
  kNow,             // now(), CURRENT_TIMESTAMP: the transaction's start (timestamptz)
  kLocalTimestamp,  // LOCALTIMESTAMP: the transaction's start in the session's zone
  kCurrentDate,     // CURRENT_DATE (the session's zone)
  kClockTimestamp,
  kRandom,  // random(): double precision in [0, 1), volatile
  // Date/time functions (function/datetime_functions.cc).
  kDatePart,   // date_part(text, timestamp/timestamptz/time/interval) and EXTRACT
  kDateTrunc,  // date_trunc(unit, timestamp/timestamptz[, zone])
  kJustifyDays,
  kJustifyHours,
  kJustifyInterval,
  kMakeInterval,  // make_interval(years, months, weeks, days, hours, mins, secs)
  kAge,           // age(timestamp, timestamp), age(timestamp)
  kTimezone,      // timezone(zone, timestamp | timestamptz): AT TIME ZONE
  // Sequence functions (sequence.cc): volatile, never folded.
  kNextval,
  kCurrval,
  kSetval,
  kLastval,
  kSerialSequence,  // pg_get_serial_sequence(table, column)
  kQuoteIdent,
  // A registered scalar function (function_registry.h): BoundExpr::scalar is its entry.
  kRegistered,
};
// kGrouping: GROUPING(args) until RewriteForAggregate replaces it; without children, the number
// of the grouping set a row of the grouping-sets aggregate belongs to. The statistical ones
// (kVarSamp ... kRegrIntercept) are PostgreSQL's stddev/variance/covariance family.
enum class AggFunc {
  kCount,
  kSum,
  kAvg,
  kMin,
  kMax,
  kStringAgg,
  kArrayAgg,
  kBoolAnd,
  kBoolOr,
  kBitAnd,  // bit_and / bit_or / bit_xor over smallint, integer, bigint
  kBitOr,
  kBitXor,
  // The ordered-set aggregates (f(direct args) WITHIN GROUP (ORDER BY key)): children[0] the
  // key's value, children[1] percentile_*'s fraction, then the key as the agg_order child.
  kPercentileCont,
  kPercentileDisc,
  kMode,
  // The hypothetical-set aggregates (rank(args) WITHIN GROUP (ORDER BY keys)): children the
  // direct arguments (one per key, evaluated once per group), then the keys as agg_order
  // children; the rank the hypothetical row would have among the group's rows.
  kHypoRank,
  kHypoDenseRank,
  kHypoPercentRank,
  kHypoCumeDist,
  kGrouping,
  kVarSamp,
  kVarPop,
  kStddevSamp,
  kStddevPop,
  kCorr,
  kCovarPop,
  kCovarSamp,
  kRegrSlope,
  kRegrIntercept,
};
// One key of agg(args ORDER BY key [ASC|DESC] [NULLS FIRST|LAST]).
struct AggOrderKey {
  bool descending = false;
  bool nulls_first = false;
  friend bool operator==(const AggOrderKey&, const AggOrderKey&) = default;
};

// The window functions (bind_window.cc, execution/window.cc); kAggregate is an aggregate
// (BoundExpr::agg) computed over the window frame.
enum class WindowFunc {
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,
  kLag,
  kLead,
  kFirstValue,
  kLastValue,
  kNthValue,
  kAggregate,
};

// The window of a kWindow call. Its expressions are the call's children: num_args arguments
// (an aggregate's with its FILTER condition last, as a kAggregate's children), then num_partition
// PARTITION BY expressions, then one per ORDER BY key (descending, nulls_first). The frame is ROWS
// or RANGE (RANGE only without offsets: UNBOUNDED PRECEDING, CURRENT ROW = the row's peers,
// UNBOUNDED FOLLOWING); offsets are bigint expressions without columns (constants or $n), checked
// when the window runs.
struct WindowClause {
  using Bound = ast::WindowFrame::Bound;
  WindowFunc func = WindowFunc::kRowNumber;
  size_t num_args = 0;
  size_t num_partition = 0;
  std::vector<bool> descending, nulls_first;  // per ORDER BY key
  bool rows = false;                          // ROWS; else RANGE
  Bound start = Bound::kUnboundedPreceding;
  Bound end = Bound::kCurrentRow;
  BoundExprPtr start_offset, end_offset;  // n PRECEDING / n FOLLOWING; null otherwise
  // Same function, frame and ORDER BY flags (the expressions are compared as children).
  bool Equals(const WindowClause& other) const;
  // Same PARTITION BY / ORDER BY flags and frame: calls that can share one window pass, given
  // equal partition and order expressions.
  bool SameWindow(const WindowClause& other) const;
};

// A planned subquery and, when it does not reference the outer query, its cached result.
// Evaluation mutates it (operator state, cache); a statement runs on one thread at a time.
struct SubqueryPlan {
  std::unique_ptr<Operator> root;
  bool correlated = false;
  Type type;  // the type of its single output column
  // Cache for uncorrelated subqueries: rows holds the result of run cached_run
  // (ExecContext::run); a later execution of a cached plan runs the subquery again.
  bool cached = false;
  uint64_t cached_run = 0;
  std::vector<Value> rows;  // first column of every row (scalar: at most 1; EXISTS: at most 1)
  // x IN (uncorrelated subquery) over integers or doubles: the rows' non-NULL values sorted,
  // built at the first lookup, so each lookup is a binary search instead of a scan; reset
  // whenever rows are computed again (RunSubquery).
  enum class Lookup { kUnbuilt, kSorted, kScan } lookup = Lookup::kUnbuilt;
  std::vector<Value> sorted;
  bool sorted_saw_null = false;
  // A correlated [NOT] EXISTS, scalar aggregate or [NOT] IN whose correlation is equalities
  // (planner/decorrelate.cc): after enough per-row runs it answers from a hash table built from
  // the inner side instead; null otherwise.
  struct Hashed;
  std::unique_ptr<Hashed> hashed;
  // A [NOT] EXISTS or x [NOT] IN that is a conjunct of a SELECT's WHERE: the binder leaves the
  // hashed form to the planner's decorrelation rule (planner/logical_rewrite.cc), which takes
  // this (bound_statement.h) and sets hashed or not; null once taken and for every other use.
  struct Deferred;
  std::unique_ptr<Deferred> deferred;
  // Its plan as EXPLAIN prints it; set only while EXPLAIN plans (planner/explain.h,
  // ExplainSubplans).
  std::shared_ptr<PlanNode> explain;
  SubqueryPlan();
  ~SubqueryPlan();
};

struct ScalarFunction;

struct BoundExpr {
  BoundKind kind = BoundKind::kConst;
  Type type;
  uint32_t position = 0;  // of the AST node, for errors found after binding

  Value value;       // kConst
  int depth = 0;     // kColumn
  int index = 0;     // kColumn; kParam: n - 1
  std::string name;  // kColumn: the column's name; kFunction/kAggregate: function name;
                     // kBinary/kIsNull from x IS [NOT] TRUE|FALSE|UNKNOWN: that test
  ast::UnaryOp unary_op = ast::UnaryOp::kNeg;
  ast::BinaryOp binary_op = ast::BinaryOp::kAdd;
  Func func = Func::kAbs;
  AggFunc agg = AggFunc::kCount;
  bool negated = false;
  bool all = false;  // kInSubquery: binary_op ALL (else ANY; IN is = ANY)
  bool distinct = false;
  bool star = false;
  bool has_operand = false;
  bool has_else = false;
  bool explicit_cast = false;
  // kAggregate: children are the arguments (none for count(*)), then one ORDER BY key per
  // agg_order entry, then the FILTER condition when has_filter.
  std::vector<AggOrderKey> agg_order;
  bool has_filter = false;

  std::vector<BoundExprPtr> children;
  std::shared_ptr<SubqueryPlan> subquery;
  std::unique_ptr<WindowClause> window;    // kWindow
  const ScalarFunction* scalar = nullptr;  // kFunction with Func::kRegistered
  // kFunction with Func::kRow: the record's fields; a kColumn of type record: the fields of
  // the values it holds, when known (a derived table's ROW(...) column), else null.
  std::shared_ptr<const RecordShape> shape;

  static BoundExprPtr Const(Value v, Type t, uint32_t position = 0);
  static BoundExprPtr Column(int depth, int index, Type t, std::string name);
  // An empty node of kind and type (children and fields filled in by the caller).
  static BoundExprPtr Make(BoundKind kind, Type type, uint32_t position);
  // kAggregate: how many children are arguments (before the ORDER BY keys and FILTER).
  size_t AggArgCount() const { return children.size() - agg_order.size() - (has_filter ? 1 : 0); }
  // Structural equality (used to match GROUP BY expressions and to share aggregates).
  bool Equals(const BoundExpr& other) const;
  // True when any node below (or this one) is a kAggregate at this query level.
  bool ContainsAggregate() const;
  // True when any node below (or this one) is a kWindow call.
  bool ContainsWindow() const;
  // True when any node below (or this one) evaluates a subquery.
  bool ContainsSubquery() const;
  // Sets (*used)[i] for every column i of the depth-0 row read here or below, growing used
  // as needed; *all when a correlated subquery below may read any column of that row (column
  // pruning, Operator::PruneColumns).
  void MarkColumnsRead(std::vector<bool>* used, bool* all) const;
};

// x IS [NOT] TRUE / FALSE: bound as x IS [NOT] DISTINCT FROM a boolean constant, its test's
// words in name (Binder::BindBooleanTest).
inline bool IsBooleanTest(const BoundExpr& e) {
  return e.kind == BoundKind::kBinary && !e.name.empty() &&
         (e.binary_op == ast::BinaryOp::kIsDistinctFrom ||
          e.binary_op == ast::BinaryOp::kIsNotDistinctFrom);
}

// Which hashed form a correlated subquery may get (planner/decorrelate.cc): by how it is used.
enum class HashedForm : uint8_t { kNone, kExists, kScalar, kIn };

// A correlated subquery (SELECT ... WHERE inner_1 = outer_1 AND ... AND rest) answered by one
// uncorrelated run, root: the subquery without the correlation equalities, over the rows that
// pass rest. Per statement run the first switch_after calls still run the per-row plan (cheap
// with an index when the outer side is small); then the table is built once and every later
// call is one lookup of (outer_1, ..., outer_k), which never matches when an outer_i is NULL.
//  kExists: root gives inner_1..inner_k; keys holds their encodings without NULLs; the row
//    exists iff its outer key is in keys.
//  kScalar (one plain aggregate, no GROUP BY): root groups by inner_1..inner_k and gives them
//    and the select-list value; values maps each non-NULL key to it; a key without a group
//    gets empty, the select list over no rows (count 0, other aggregates NULL).
//  kIn (x IN / NOT IN (SELECT y ...)): root gives inner_1..inner_k, y; groups maps each
//    non-NULL key to whether a y of it is NULL; keys holds the encodings of (key, y), y not NULL.
struct SubqueryPlan::Hashed {
  HashedForm form = HashedForm::kExists;
  std::unique_ptr<Operator> root;
  std::vector<BoundExprPtr> outer_keys;  // over the outer query's row (depth 0 there)
  BoundExprPtr empty;                    // kScalar; constants and parameters only
  uint64_t switch_after = 1;
  double build_cost = 0;  // the planner's estimates, for EXPLAIN
  double per_row_cost = 0;
  uint64_t run = 0;  // ExecContext::run of calls and the table
  uint64_t calls = 0;
  bool built = false;
  // The budget (twice work_mem, bytes) a table of this plan outgrew while being built, 0 if
  // none did: it was dropped, and the per-row plan answers every later call until a run has a
  // larger budget (SET work_mem), so repeated executions do not build and drop it again.
  size_t outgrew_budget = 0;
  std::unordered_set<std::string> keys;
  std::unordered_map<std::string, Value> values;
  std::unordered_map<std::string, bool> groups;
};

}  // namespace meridian::exec
