// Binder: resolves the names of a parsed statement against the catalog (tables, columns,
// functions), types every expression with PostgreSQL-like rules (type_rules.h) and reports
// errors with the SQLSTATE and the 1-based position of the offending AST node. Subqueries are
// bound in nested scopes (correlated references get depth > 0) and planned on the spot.
// Every table the statement touches is added to the statement's LockSet (shared for reads,
// exclusive for the DML target). One Binder binds one statement on one thread.
// Implementation: binder.cc (scopes, names), bind_expr.cc, bind_function.cc,
// bind_select.cc, bind_aggregate.cc, bind_insert.cc, bind_update.cc (UPDATE, DELETE).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "binder/bound_expr.h"
#include "binder/bound_statement.h"
#include "binder/params.h"
#include "catalog/catalog.h"
#include "catalog/table_lock.h"
#include "meridian/parser/ast.h"
#include "meridian/status.h"

namespace meridian::exec {

// PostgreSQL folds a strict operator or function with a constant NULL operand to NULL while
// planning, so the other operand is never evaluated (CAST(NULL AS INTEGER) + x / 0 is NULL,
// not 22012). IsNullConstant: a NULL constant, or a cast of one.
bool IsNullConstant(const BoundExpr& e);
// e itself, or a NULL constant of e's type when one of its operands is a NULL constant.
BoundExprPtr FoldStrictNull(BoundExprPtr e);

// 42883 "function name(argument types) does not exist" with PostgreSQL's hint.
Status NoFunction(const std::string& name, const std::vector<BoundExprPtr>& args,
                  uint32_t position);

// json_agg, jsonb_agg, json_object_agg, jsonb_object_agg (bind_json.cc).
bool IsJsonAggregateName(const std::string& n);
// json(b)_array_elements(_text), json(b)_object_keys: set-returning (bind_json.cc).
bool IsJsonSetFunctionName(const std::string& n);

// What a view's query reads (CREATE VIEW records it in the catalog, catalog/schema.h).
struct ViewDependencies {
  std::vector<uint32_t> relations;                // user tables and views
  std::vector<std::pair<uint32_t, int>> columns;  // (table id, column position)
};

// A data-modifying WITH query (ast::CommonTableExpr::statement) of the statement being bound:
// its RETURNING columns (returning false: it has no RETURNING) and the slot whose work table
// holds its rows once it ran (engine/main runs it before binding the statement; a Describe
// leaves the table empty). A reference to it reads that table (BindCteReference).
struct ModifyingCte {
  const ast::CommonTableExpr* cte = nullptr;
  bool returning = false;
  std::vector<ColumnInfo> columns;
  std::shared_ptr<WorkTableSlot> slot;
};

class Binder {
 public:
  // params: the statement's parameter types, filled in while binding (null: the statement has
  // no parameters, and $n is 42P02).
  Binder(catalog::Catalog* catalog, catalog::LockSet* locks, ParamTypes* params = nullptr)
      : catalog_(catalog), locks_(locks), params_(params) {}

  Result<std::unique_ptr<BoundSelect>> BindSelect(const ast::SelectStmt& stmt);
  Result<std::unique_ptr<BoundInsert>> BindInsert(const ast::InsertStmt& stmt);
  Result<std::unique_ptr<BoundUpdate>> BindUpdate(const ast::UpdateStmt& stmt);
  Result<std::unique_ptr<BoundDelete>> BindDelete(const ast::DeleteStmt& stmt);
  // The data-modifying WITH queries that ran (or were described) so far; read by references
  // to them until the binder is gone.
  void set_modifying_ctes(const std::vector<ModifyingCte>* ctes) { modifying_ctes_ = ctes; }
  // Makes the first visible queries of a WITH list (all of it under WITH RECURSIVE) visible
  // to the statements bound next: the scope of a data-modifying WITH query's statement.
  void PushWith(const std::vector<ast::CommonTableExpr>& list, size_t visible);
  // A column DEFAULT: no column references or subqueries; cast (assignment) to type.
  Result<BoundExprPtr> BindDefault(const ast::Expr& expr, Type type, const std::string& column);
  // A CHECK expression over a row of table (schema: its columns; table may be null while the
  // table is being created): boolean, no subqueries, aggregates or parameters
  // (bind_check.cc).
  Result<BoundExprPtr> BindCheck(const ast::Expr& expr, const catalog::TableSchema& schema,
                                 std::shared_ptr<catalog::Table> table);
  // Every CHECK constraint of table's current schema, bound.
  Result<std::vector<BoundCheck>> BindChecks(const std::shared_ptr<catalog::Table>& table);
  // An index key expression (predicate false) or a partial index's WHERE (predicate true,
  // boolean) over the table's row: no subqueries, aggregates, window functions or parameters.
  Result<BoundExprPtr> BindIndexExpr(const ast::Expr& expr, const catalog::TableSchema& schema,
                                     bool predicate);
  // A predicate's AND-ed conjuncts, each bound over schema and deparsed (PostgreSQL's plain
  // layout): what ON CONFLICT ... WHERE compares with a partial index's predicate.
  Result<std::vector<std::string>> PredicateConjuncts(const ast::Expr& expr,
                                                      const catalog::TableSchema& schema);
  // The same conjuncts as bound expressions (the planner's implication test).
  Result<std::vector<BoundExprPtr>> BindPredicateConjuncts(const ast::Expr& expr,
                                                           const catalog::TableSchema& schema);
  // An argument of EXECUTE for its prepared statement's parameter $n of type `type`
  // (bind_execute.cc): no aggregates or subqueries, no tables (a column is 42703), no $n (42P02);
  // assignment-cast to type (42804 `parameter $n of type x cannot be coerced to the expected
  // type y`).
  Result<BoundExprPtr> BindExecuteArg(const ast::Expr& expr, Type type, int n);

  // The session binding (SessionSettings::session_id): its TEMP views are visible.
  void set_session(uint64_t session) { session_ = session; }
  // Records what the statement reads into *deps (CREATE VIEW); null stops recording.
  void set_dependencies(ViewDependencies* deps) { deps_ = deps; }

  // PostgreSQL's output column name of a select-list expression ("?column?" when none).
  static std::string OutputName(const ast::Expr& expr);
  // PostgreSQL's FigureIndexColname: what an index key expression adds to a default index
  // name (lower(email) -> "lower", (a + 1) -> "expr").
  static std::string IndexColumnName(const ast::Expr& expr);

  // True once a system table was bound: its rows were built from the catalog for this
  // statement, so the plan must not be reused (plan_cache.h).
  bool read_system_tables() const { return read_system_tables_; }

 private:
  struct ScopeTable {
    std::string name;  // alias, else table name: what qualifies columns
    std::shared_ptr<catalog::Table> table;
    int offset = 0;  // first column's index in the joined row
    // Columns merged into an earlier table's by JOIN ... USING: an unqualified name and * skip
    // them here (PostgreSQL shows a USING column once).
    std::vector<std::string> using_hidden;
    bool nullable = false;  // on the NULL-extended side of an outer join
    // The columns this FROM item exposes: a table's schema or a subquery's output (renamed by
    // AS alias (a, b)); nullable here means "may be NULL".
    std::vector<ColumnInfo> columns;
    // Parallel to columns, or empty: for a derived table's record column whose records' fields
    // the binder knows (its select list item is a ROW(...)), their shape (BindFieldSelect).
    std::vector<std::shared_ptr<const RecordShape>> shapes;
    int Find(const std::string& column) const;  // index in columns, or -1
    // A USING column of a RIGHT or FULL join, merged into this (left) table's column of the
    // same name: unqualified, it is the right table's column (RIGHT) or COALESCE(left, right)
    // (FULL), as PostgreSQL's merged join column.
    struct Merged {
      std::string name;
      int right_index = 0;  // in the joined row
      std::string right_name;
      Type right_type;
      bool full = false;
      Type type;  // FULL: the common type of both columns
    };
    std::vector<Merged> merged;
    const Merged* FindMerged(const std::string& column) const;
  };
  static ScopeTable TableScope(std::string name, std::shared_ptr<catalog::Table> table, int offset);
  static ScopeTable SchemaScope(const catalog::TableSchema& schema,
                                std::shared_ptr<catalog::Table> table, int offset);
  struct Scope {
    std::vector<ScopeTable> tables;
    const Scope* parent = nullptr;
    int level = 0;
    // Set when a deeper query (a subquery, a LATERAL item) resolves a column here.
    mutable bool read_from_below = false;
  };
  // What the expression being bound may contain.
  struct ExprRules {
    const char* clause = "";  // for messages: "WHERE", "LIMIT", "DEFAULT", ...
    bool aggregates = false;  // aggregate calls allowed here
    bool columns = true;      // column references allowed
    bool subqueries = true;
    bool windows = false;        // window function calls allowed here (SELECT list, ORDER BY)
    bool set_functions = false;  // unnest / generate_series / generate_subscripts (SELECT list)
  };

  // binder.cc
  Result<std::shared_ptr<catalog::Table>> LookupTable(const std::string& name,
                                                      const ast::Location& loc,
                                                      catalog::LockMode mode) {
    return LookupTable("", name, loc, mode);
  }
  // schema.name: an empty schema searches pg_catalog's system tables, then the user's tables
  // (public), as PostgreSQL's default search path; system tables are read-only (42501).
  Result<std::shared_ptr<catalog::Table>> LookupTable(const std::string& schema,
                                                      const std::string& name,
                                                      const ast::Location& loc,
                                                      catalog::LockMode mode);
  Result<BoundExprPtr> BindColumnRef(const ast::Expr& expr);
  // form: how the subquery is used (EXISTS, a scalar value, x IN); a correlated one may then
  // also get that hashed form (binder.cc, planner/decorrelate.cc). defer: a WHERE conjunct,
  // whose hashed form the decorrelation rule builds; semi: not negated, so the rule may also
  // join it (a third binding for its unique-ified inner side).
  Result<std::unique_ptr<SubqueryPlan>> BindSubqueryPlan(const ast::SelectStmt& stmt,
                                                         std::vector<ColumnInfo>* columns,
                                                         HashedForm form = HashedForm::kNone,
                                                         bool defer = false, bool semi = false);
  // x IN (subquery) with x of type x: drops the subquery's hashed form unless x's and its
  // values' hash keys are equal exactly when they are (planner/decorrelate.cc).
  void KeepHashedIn(SubqueryPlan* plan, const Type& x);
  // Casts e to type to: folds constants (errors get e's position); assignment uses
  // assignment-cast rules and the 42804 "column ... is of type" message for column.
  Result<BoundExprPtr> Coerce(BoundExprPtr e, Type to, bool assignment, const std::string& column);
  // Column c of st as an unqualified name or * gives it at depth: the column, or its merged
  // RIGHT/FULL JOIN USING form.
  Result<BoundExprPtr> UnqualifiedColumn(const ScopeTable& st, int c, int depth, uint32_t pos);

  // bind_row.cc: record values. A whole-row reference `t` to the FROM item st at depth (NULL
  // on the NULL-extended side of an outer join when st has a NOT NULL column to tell it), and
  // ROW(a, b, ...) (untyped literals become text; fields f1, f2, ...).
  Result<BoundExprPtr> WholeRowRef(const ScopeTable& st, int depth, uint32_t pos);
  // The whole row of the FROM item named name in the innermost scope that has one (marking
  // the reference correlated when it is an outer query's); null when none has it.
  Result<BoundExprPtr> WholeRowByName(const std::string& name, uint32_t pos);
  Result<BoundExprPtr> BindRowConstructor(std::vector<BoundExprPtr> args, uint32_t pos);
  // (record).field (bind_row.cc): the field's own expression, taken from the ROW(...) or whole
  // row the record is; else, when the record's shape is known (a derived table's column), a
  // Func::kRecordField call reading the field at run time.
  Result<BoundExprPtr> BindFieldSelect(const ast::Expr& expr);
  // The shape of the records e yields when the binder knows it: ROW(...) and whole rows, a
  // column that carries one, a CASE whose branches agree; else null.
  static std::shared_ptr<const RecordShape> ShapeOf(const BoundExpr& e);
  // Field i of record (whose shape ShapeOf gave): a ROW(...)'s own child, else a
  // Func::kRecordField read.
  static BoundExprPtr FieldOf(BoundExprPtr record, const RecordShape& shape, size_t i,
                              uint32_t pos);
  // (expr).* as a select item (bind_row.cc): one column per field, named after it, expr bound
  // again for each (as PostgreSQL evaluates it per field); 42809 when expr is no record or
  // its fields are not known.
  Status BindFieldStar(const ast::Expr& x, BoundSelect* out,
                       std::vector<const ast::Expr*>* item_asts);
  // Per output column of a derived table (ScopeTable::shapes): ShapeOf its select list item
  // (of a set operation: the shape its inputs agree on).
  static std::vector<std::shared_ptr<const RecordShape>> OutputShapes(const BoundSelect& select);

  // bind_expr.cc
  Result<BoundExprPtr> BindExpr(const ast::Expr& expr);
  Result<BoundExprPtr> BindBoolean(const ast::Expr& expr, const char* what);
  Result<BoundExprPtr> BindBooleanTest(const ast::Expr& expr);
  Result<BoundExprPtr> BindTableOid(const ast::Expr& expr);
  Result<BoundExprPtr> BindLiteral(const ast::Expr& expr);
  Result<BoundExprPtr> BindParam(const ast::Expr& expr);
  // An unknown-typed $n meeting a context that wants type to takes that type (PostgreSQL's
  // parameter type inference); other expressions are returned unchanged.
  void InferParamType(BoundExpr* e, Type to);
  Result<BoundExprPtr> BindUnary(const ast::Expr& expr);
  Result<BoundExprPtr> BindBinary(const ast::Expr& expr);
  Result<BoundExprPtr> MakeComparison(ast::BinaryOp op, BoundExprPtr l, BoundExprPtr r,
                                      uint32_t position);
  // Operators over interval, time, timestamp and timestamptz (and date with those); nullptr
  // result when neither operand is one of them.
  // extract/date_part/date_trunc, justify_*, make_interval, age and timezone (bind_datetime.cc):
  // sets e's func and type, coercing *args; false when no version of name takes these args.
  static bool IsDateTimeFunction(const std::string& name);
  Result<bool> BindDateTimeFunction(const std::string& name, std::vector<BoundExprPtr>* args,
                                    BoundExpr* e);
  Result<BoundExprPtr> MakeTimeArithmetic(ast::BinaryOp op, BoundExprPtr* l, BoundExprPtr* r,
                                          uint32_t position);
  Result<BoundExprPtr> MakeArithmetic(ast::BinaryOp op, BoundExprPtr l, BoundExprPtr r,
                                      uint32_t position);
  Result<BoundExprPtr> BindCast(const ast::Expr& expr);
  Result<BoundExprPtr> BindCase(const ast::Expr& expr);
  Result<BoundExprPtr> BindInList(const ast::Expr& expr);
  Result<BoundExprPtr> BindBetween(const ast::Expr& expr);
  Result<BoundExprPtr> BindSubqueryExpr(const ast::Expr& expr);
  // bind_array.cc: ARRAY[...] (cast_to: the array type of an enclosing ::T[], else
  // Unknown), ARRAY(subquery), x op ANY|ALL (array), a[i] and a[i:j], array || array /
  // element, the array functions and the set-returning functions in FROM.
  Result<BoundExprPtr> BindArray(const ast::Expr& expr, Type cast_to = Type::Unknown());
  Result<BoundExprPtr> BindQuantifiedArray(const ast::Expr& expr);
  Result<BoundExprPtr> BindSubscript(const ast::Expr& expr);
  Result<BoundExprPtr> MakeArrayConcat(BoundExprPtr l, BoundExprPtr r, uint32_t position);
  // array_to_string, array_upper, ...: null when name matches none of them.
  Result<BoundExprPtr> BindArrayFunction(const std::string& name, std::vector<BoundExprPtr>* args,
                                         uint32_t position);
  // unnest(array) / generate_series(a, b [, step]) in FROM as a derived table of one column
  // (named by the column alias, else the table alias, else the function).
  Result<std::unique_ptr<BoundSelect>> BindFunctionSource(const ast::TableRef& ref,
                                                          const std::string& name);
  // Common type of exprs (unknown → text when all unknown) and casts them all to it.
  Status UnifyTypes(std::vector<BoundExprPtr*> exprs, const char* context, Type* type);

  // bind_function.cc
  // ignore_over: bind the call as if it had no OVER clause (to tell an unknown function from
  // one that is not a window function).
  Result<BoundExprPtr> BindFunction(const ast::Expr& expr, bool ignore_over = false);
  Result<BoundExprPtr> BindAggregate(const ast::Expr& expr);
  // The aggregate call itself: arguments and result type (window: an aggregate OVER a
  // window, whose arguments may hold plain aggregates of a grouped query).
  Result<BoundExprPtr> ResolveAggregate(const ast::Expr& expr, bool window);
  static bool IsAggregateFunctionName(const std::string& name);
  Result<std::vector<BoundExprPtr>> BindAggregateArgs(const ast::Expr& expr, bool window);
  Result<BoundExprPtr> BindStringAgg(const ast::Expr& expr, BoundExprPtr e, bool window);
  Result<BoundExprPtr> BindRegression(const ast::Expr& expr, BoundExprPtr e, AggFunc f,
                                      bool window);
  Result<BoundExprPtr> BindGrouping(const ast::Expr& expr);
  // GROUP BY's expressions bound into out->group_by (and out->grouping_sets; bind_aggregate.cc).
  Status BindGroupBy(const ast::SelectStmt& stmt, const std::vector<const ast::Expr*>& item_asts,
                     BoundSelect* out);
  static Status ExpandGroupingSets(const ast::SelectStmt& stmt, std::vector<BoundExprPtr> keys,
                                   BoundSelect* out);
  // An aggregate call's ORDER BY keys (with DISTINCT each must be an argument, 42P10) and
  // FILTER (WHERE cond) (boolean, no aggregates or window calls), appended to e's children
  // (bound_expr.h).
  Status BindAggregateExtras(const ast::Expr& expr, BoundExpr* e, bool window);

  // bind_json.cc: the JSON operators and type-dependent JSON functions.
  // A call of the registered function name (its first entry) with args as they are.
  Result<BoundExprPtr> MakeJsonCall(const char* name, std::vector<BoundExprPtr> args, Type type,
                                    uint32_t position);
  // to_json / to_jsonb of a bound expression (strings quoted, json/jsonb cast, others cast).
  Result<BoundExprPtr> ToJsonExpr(BoundExprPtr a, bool jsonb);
  // -> ->> #> #>> #- @> <@ ? ?| ?&; 42883 for operand types without the operator.
  Result<BoundExprPtr> BindJsonOperator(const std::string& op, BoundExprPtr l, BoundExprPtr r,
                                        uint32_t position);
  // jsonb || jsonb, jsonb - text/int/text[], jsonb comparisons; null when neither operand is
  // jsonb (the operands are then untouched).
  // The geometric operators (bind_geometry.cc): op over point/box operands as a call of its
  // function; null when neither operand is geometric (and op is not && ~= <->).
  Result<BoundExprPtr> BindGeometryOperator(const std::string& op, BoundExprPtr* l, BoundExprPtr* r,
                                            uint32_t pos);
  // A comparison or arithmetic operator with a point or box operand; null otherwise.
  Result<BoundExprPtr> BindGeometryBinary(ast::BinaryOp op, BoundExprPtr* l, BoundExprPtr* r,
                                          uint32_t pos);
  // point[i]: x for 0, y for 1, NULL otherwise.
  Result<BoundExprPtr> BindPointSubscript(BoundExprPtr point, BoundExprPtr index, uint32_t pos);
  Result<BoundExprPtr> BindJsonbBinary(ast::BinaryOp op, BoundExprPtr* l, BoundExprPtr* r,
                                       uint32_t position);
  // The JSON operators (called by their symbols), to_json(b), json(b)_build_object/array:
  // null for other names.
  Result<BoundExprPtr> BindJsonFunction(const std::string& name, std::vector<BoundExprPtr>* args,
                                        uint32_t position);
  Result<BoundExprPtr> BindJsonAggregate(const ast::Expr& expr);
  Result<BoundExprPtr> BindJsonSetFunction(const std::string& name, std::vector<BoundExprPtr> args,
                                           uint32_t position);

  // bind_window.cc: f(args) OVER ... (42P20 where window functions are not allowed, nested,
  // or in a window definition; 42809 for a function that is neither a window function nor an
  // aggregate), the WINDOW clause, and moving the calls into BoundSelect::windows.
  static bool IsWindowFunctionName(const std::string& name);
  Result<BoundExprPtr> BindWindowFunction(const ast::Expr& expr);
  // A window's PARTITION BY, ORDER BY and frame after following OVER (w ...) / OVER w to the
  // WINDOW clause's definitions (the first visible_defs of windows_).
  struct ResolvedWindow {
    const std::vector<ast::ExprPtr>* partition;
    const std::vector<ast::OrderItem>* order;
    const ast::WindowFrame* frame;  // null: the default frame
  };
  Result<ResolvedWindow> ResolveWindow(const ast::WindowSpec& spec, size_t visible_defs);
  // WINDOW w AS (...), ...: unique names, references to earlier definitions only.
  Status CheckWindowDefinitions(const std::vector<ast::WindowSpec>& defs);
  // The result type of lag/lead/first_value/last_value/nth_value: the common type of the value
  // (and lag/lead's default), both cast to it; 42883 when they have none.
  Result<Type> ValueArgumentsType(const std::string& name, std::vector<BoundExprPtr>* args,
                                  uint32_t position);
  // n of ROWS n PRECEDING / FOLLOWING: no columns, aggregates or subqueries; bigint.
  Result<BoundExprPtr> BindFrameOffset(const ast::Expr& expr);
  // Replaces every kWindow call in *expr by a column of the window row (window_input + j),
  // moving the call to out->windows[j] (equal calls share one j).
  static void ExtractWindows(BoundExprPtr* expr, BoundSelect* out);
  // A set-returning call (unnest(a), generate_series(a, b [, step]), generate_subscripts(a, d
  // [, reverse])) over bound arguments: a kFunction with its type; 42883 when they do not fit.
  // The same call serves FROM items and the select list.
  Result<BoundExprPtr> BindSetFunction(const std::string& name, std::vector<BoundExprPtr> args,
                                       uint32_t position);
  // Replaces every set-returning call in *expr (select list) by a column of the set row
  // (set_input + j), moving the call to out->set_functions[j]; 0A000 for one inside CASE,
  // COALESCE or another set-returning call's arguments.
  // inside: null at the top of a select-list item, else where *expr stands (for the message).
  static Status ExtractSetFunctions(BoundExprPtr* expr, BoundSelect* out, const char* inside);
  // version(), current_setting(), pg_get_indexdef(), ...: null when name and arity match none.
  // A call of a registered scalar function (function_registry.h): null when no entry has the
  // name, 42883 when entries have it but none fits the arguments.
  Result<BoundExprPtr> BindRegisteredFunction(const std::string& name,
                                              std::vector<BoundExprPtr>* args, uint32_t position);
  Result<BoundExprPtr> BindSystemFunction(const std::string& name, std::vector<BoundExprPtr>* args,
                                          uint32_t position);
  // CURRENT_TIMESTAMP(p), LOCALTIMESTAMP(p), LOCALTIME[(p)] (bind_function.cc).
  Result<BoundExprPtr> BindClockWithPrecision(const std::string& name, const ast::Expr& expr,
                                              const std::vector<BoundExprPtr>& args,
                                              uint32_t position);
  // x::regclass, ::regtype, ::regnamespace: a name to its oid, or an oid to its name.
  Result<BoundExprPtr> BindRegCast(const ast::Expr& expr);

  // bind_select.cc
  Result<std::unique_ptr<BoundSelect>> BindSelectInScope(const ast::SelectStmt& stmt);
  // One SELECT core (FROM ... HAVING, the select list, ORDER BY, LIMIT) in a new scope.
  // FOR UPDATE / FOR SHARE of a SELECT core: which FROM tables lock their rows.
  Status BindLocking(const ast::SelectStmt& stmt, BoundSelect* out);
  Result<std::unique_ptr<BoundSelect>> BindSelectCore(const ast::SelectStmt& stmt);
  // FROM items (a SELECT core's, or UPDATE ... FROM / DELETE ... USING's) appended to scope
  // and out, their columns from *offset on (advanced past them); bound before the scope is
  // entered, so a subquery in FROM sees the enclosing queries, not its siblings. 42712 for a
  // name given twice.
  Status BindFromList(const std::vector<ast::TableRef>& from, Scope* scope, BoundSelect* out,
                      int* offset);
  // UPDATE ... FROM / DELETE ... USING (bind_update.cc): the FROM items joined with the target
  // (last in the join, its rid after its columns) in out->join and *scope, WHERE bound twice
  // (the join's and out->recheck), the join's ON conditions; the target named alias.
  Status BindModifyJoin(const std::vector<ast::TableRef>& from, const ast::Expr* where,
                        const std::string& alias, Scope* scope, BoundMatch* out);
  // UNION / INTERSECT / EXCEPT: both inputs, column count and types, ORDER BY by output
  // column name or position, LIMIT/OFFSET.
  Result<std::unique_ptr<BoundSelect>> BindSetOperation(const ast::SelectStmt& stmt);
  // keep_unknown: leave untyped outputs unknown (a set operation's input), else text.
  // Also RETURNING's list (BindReturning).
  Status BindSelectList(const std::vector<ast::SelectItem>& items, bool keep_unknown,
                        BoundSelect* out, std::vector<const ast::Expr*>* item_asts);
  // Identity columns (bind_identity.cc): 428C9 for a value given to a GENERATED ALWAYS column
  // (INSERT without OVERRIDING SYSTEM VALUE, UPDATE other than to DEFAULT); OVERRIDING USER
  // VALUE makes identity columns take their defaults. listed: per source column, the position
  // in the statement's column list (and VALUES rows) of its value.
  Status CheckIdentityTargets(const ast::InsertStmt& stmt, const std::vector<int>& listed,
                              BoundInsert* out);
  Status CheckIdentityAssignments(const std::vector<ast::Assignment>& list,
                                  const catalog::Table& table);
  // SET lists of UPDATE and ON CONFLICT DO UPDATE over the current scope: each value coerced
  // to its column's type, DEFAULT, 42703 for an unknown column, 42601 for one set twice (but
  // col[i] = ... several times: chained). target_offset: the target row's first column in
  // the scope's row, which col[i] = v reads.
  Status BindAssignments(const std::vector<ast::Assignment>& list, const catalog::Table& table,
                         int target_offset, std::vector<BoundAssignment>* out);
  // col[i] = v / col[i:j] = array (bind_array.cc): array_set over current, the column's value
  // (or an earlier assignment's to it; INSERT: a NULL). The value is `value` when given (INSERT
  // ... SELECT's output column), else value_expr bound after the subscripts (null: DEFAULT,
  // 0A000).
  Result<BoundExprPtr> BindArrayAssignment(const ast::Assignment& a, const catalog::Column& col,
                                           BoundExprPtr current, const ast::Expr* value_expr,
                                           BoundExprPtr value = nullptr);
  // col.field as a target: 42804, no column type here being composite (bind_array.cc).
  Status CheckTargetField(const ast::Assignment& a, const catalog::Column& col);
  // An array subscript: integer (an unknown literal or integer type coerced), else 42804.
  Result<BoundExprPtr> BindArrayIndex(const ast::Expr& expr);
  // ON CONFLICT (bind_on_conflict.cc): the arbiter indexes (42P10 when no unique index has the
  // target's columns), DO UPDATE's SET and WHERE over the target row and EXCLUDED.
  Status BindOnConflict(const ast::InsertStmt& stmt, BoundInsert* out);
  // RETURNING items over the row of table (bind_returning.cc); empty items leave *out empty.
  // alias: the name that qualifies the table's columns (empty: the table's name).
  Status BindReturning(const std::vector<ast::SelectItem>& items,
                       const std::shared_ptr<catalog::Table>& table, BoundReturning* out,
                       const std::string& alias = {});
  // RETURNING of UPDATE ... FROM / DELETE ... USING over the joined row of scope (the target
  // last; * lists it first, as PostgreSQL does).
  Status BindJoinReturning(const std::vector<ast::SelectItem>& items, const Scope& scope,
                           BoundReturning* out);
  // Both: the items bound as a select list in scope (its only scope).
  Status BindReturningIn(const std::vector<ast::SelectItem>& items, Scope* scope,
                         BoundReturning* out);
  // The projected-row column an ORDER BY or DISTINCT ON item sorts on: a position, an output
  // name, or an expression (appended as a hidden projection when no projection equals it).
  Result<int> SortColumn(const ast::Expr& x, BoundSelect* out);
  // DISTINCT ON (...): BoundSelect::distinct_on, and the sort keys it needs (42P10 when the
  // ORDER BY does not start with its expressions).
  Status BindDistinctOn(const ast::SelectStmt& stmt, BoundSelect* out);
  Status BindOrderBy(const ast::SelectStmt& stmt, const std::vector<const ast::Expr*>& items,
                     BoundSelect* out);
  // outer_columns: a SELECT core's LIMIT / OFFSET, which may read enclosing queries' columns
  // (42P10 for its own).
  Result<BoundExprPtr> BindLimit(const ast::Expr& expr, const char* what,
                                 bool outer_columns = false);
  // A subquery in FROM or a WITH query referenced by name: bound like a subquery of the
  // enclosing scope (no access to sibling FROM items), with its output columns renamed by
  // aliases.
  Result<std::unique_ptr<BoundSelect>> BindDerived(const ast::SelectStmt& query,
                                                   const std::string& name,
                                                   const std::vector<std::string>& aliases,
                                                   uint32_t position);
  // A view named in FROM (bind_view.cc): its stored query bound on its own (no enclosing
  // query's columns, no WITH queries of the statement), with the view's column names.
  Result<std::unique_ptr<BoundSelect>> BindView(const catalog::ViewSchema& view, uint32_t position);
  // The view ref names (unqualified or public.name, not a system table), or null.
  std::shared_ptr<const catalog::ViewSchema> FindView(const ast::TableRef& ref) const;
  // Dependency recording (set_dependencies): column c of FROM item st is read.
  void NoteColumn(const ScopeTable& st, int c);
  void NoteRelation(uint32_t id);
  // 55000 `cannot insert into view "v"` (write_verb_: insert into / update / delete from):
  // views are not updatable.
  Status CannotChangeView(const std::string& name, uint32_t position) const;
  // FROM item `AS name (aliases)`: renames the first columns; 42P10 for too many aliases.
  static Status RenameColumns(BoundSelect* bound, const std::string& name,
                              const std::vector<std::string>& aliases, uint32_t position);
  // The WITH query visible under name (innermost first): its index in ctes_, or -1.
  int FindCte(const std::string& name) const;
  // bind_cte.cc: a FROM item naming WITH query ctes_[index]: its query bound for this
  // reference (under WITH RECURSIVE, a recursive query's UNION with its working table), or,
  // inside that query's own recursive term, the reference to the working table (42P19 where
  // PostgreSQL refuses one; 0A000 for mutual recursion).
  Result<std::unique_ptr<BoundSelect>> BindCteReference(size_t index, const ast::TableRef& ref);
  Result<std::unique_ptr<BoundSelect>> BindRecursiveCte(const ast::CommonTableExpr& cte,
                                                        uint32_t position);
  struct CteBinding;
  Result<std::unique_ptr<BoundSelect>> RecursiveReference(CteBinding* binding,
                                                          const ast::TableRef& ref);
  // 42P19 for a FROM list that uses a recursive reference on the NULL-extended side of an outer
  // join, or a SELECT core that reads it and aggregates (out: the core's binding so far).
  Status CheckRecursiveReferenceUse(const std::vector<ast::TableRef>& from, const Scope& scope,
                                    const BoundSelect& out) const;
  // LATERAL (bind_select.cc): binds FROM item ref's subquery or function with the items
  // before it (in scope) visible; *lateral tells whether it read one of them, else the item is
  // bound again as an ordinary one (so it can be joined by any method).
  Result<std::unique_ptr<BoundSelect>> BindLateral(const ast::TableRef& ref,
                                                   const std::string& name, Scope* scope,
                                                   bool* lateral);
  // ON / USING of FROM table i (scope_ holds every FROM table); null when there is none.
  Result<BoundExprPtr> BindJoinCondition(const ast::TableRef& ref, size_t i);

  // bind_aggregate.cc: rewrites an expression over the joined row into one over the aggregate
  // row (GROUP BY values, then aggregate results), collecting aggregates into out->aggregates.
  Status RewriteForAggregate(BoundExprPtr* expr, BoundSelect* out);
  // Adds to a plain GROUP BY the columns read outside aggregates whose table's primary key it
  // holds (PostgreSQL accepts them: one value per group); the planner carries them beside the
  // hash key instead of hashing them.
  void AddDependentGroupKeys(BoundSelect* out);
  static Status RewriteGrouping(BoundExprPtr* expr, BoundSelect* out);

  // Binds expr with bind (BindExpr or BindBoolean) as a stand-alone expression: in scope (its
  // only scope; correlation reset), under rules, without parameters (a stored DEFAULT or CHECK,
  // an EXECUTE argument); the binder's rules and parameters are restored afterwards.
  Result<BoundExprPtr> BindStandalone(Scope* scope, ExprRules rules,
                                      const std::function<Result<BoundExprPtr>()>& bind);

  // Makes `scope` the innermost scope until destroyed, then restores the one before.
  class ScopeSwitch {
   public:
    ScopeSwitch(Binder* binder, Scope* scope) : slot_(&binder->scope_), saved_(binder->scope_) {
      *slot_ = scope;
    }
    ~ScopeSwitch() { *slot_ = saved_; }
    ScopeSwitch(const ScopeSwitch&) = delete;
    ScopeSwitch& operator=(const ScopeSwitch&) = delete;
    Scope* saved() const { return saved_; }

   private:
    Scope** const slot_;
    Scope* const saved_;
  };

  catalog::Catalog* const catalog_;
  bool read_system_tables_ = false;
  // Set just before binding a direct input of UNION / INTERSECT / EXCEPT; the next
  // BindSelectCore or BindSetOperation takes it (first thing, before any subquery): such an
  // input keeps untyped outputs (NULL, 'text') unknown, for the operation to resolve as
  // PostgreSQL does (SELECT 1 UNION SELECT NULL is integer).
  bool set_branch_ = false;
  catalog::LockSet* const locks_;
  ParamTypes* params_;      // null: no parameters (also while binding a DEFAULT)
  Scope* scope_ = nullptr;  // innermost scope; null outside any query
  ExprRules rules_;
  bool in_aggregate_ = false;  // binding an aggregate's argument
  // Binding a window call's arguments or window: the 42P20 message for a window call there.
  const char* in_window_ = nullptr;
  // The WINDOW clause of the SELECT core being bound (null outside a SELECT core).
  const std::vector<ast::WindowSpec>* windows_ = nullptr;
  std::vector<bool> correlated_;  // per scope level: references an enclosing scope
  // WITH queries in scope, outermost first, each with the end of its WITH list in ctes_.
  // While a WITH query's own body is bound, only the ones before it stay visible, or under WITH
  // RECURSIVE its whole list (itself too).
  struct CteEntry {
    const ast::CommonTableExpr* cte;
    size_t list_end;
  };
  std::vector<CteEntry> ctes_;
  const std::vector<ModifyingCte>* modifying_ctes_ = nullptr;
  // Pushes a WITH list onto ctes_ and pops it again when destroyed.
  class WithScope {
   public:
    WithScope(Binder* binder, const std::vector<ast::CommonTableExpr>& with)
        : binder_(binder), saved_(binder->ctes_.size()) {
      for (const ast::CommonTableExpr& cte : with) {
        binder->ctes_.push_back({&cte, saved_ + with.size()});
      }
    }
    ~WithScope() { binder_->ctes_.resize(saved_); }
    WithScope(const WithScope&) = delete;
    WithScope& operator=(const WithScope&) = delete;

   private:
    Binder* binder_;
    size_t saved_;
  };
  Result<std::unique_ptr<BoundInsert>> BindInsertBody(const ast::InsertStmt& stmt);
  Result<std::unique_ptr<BoundUpdate>> BindUpdateBody(const ast::UpdateStmt& stmt);
  Result<std::unique_ptr<BoundDelete>> BindDeleteBody(const ast::DeleteStmt& stmt);
  // bind_cte.cc: a reference to a data-modifying WITH query: a scan of its RETURNING rows.
  Result<std::unique_ptr<BoundSelect>> ModifyingCteReference(const ast::CommonTableExpr& cte,
                                                             const ast::TableRef& ref);
  // The WITH queries whose bodies are being bound, innermost last (bind_cte.cc).
  struct CteBinding {
    const ast::CommonTableExpr* cte = nullptr;
    enum class Phase { kPlain, kNonRecursive, kRecursive } phase = Phase::kPlain;
    std::vector<ColumnInfo> columns;       // kRecursive: the working table's columns
    std::shared_ptr<WorkTableSlot> table;  // kRecursive
    int sublinks = 0;                      // sublink_depth_ of the recursive term
    int refs = 0;                          // references to the working table bound
  };
  std::vector<CteBinding> cte_bindings_;
  int sublink_depth_ = 0;  // subqueries in expressions being bound (BindSubqueryPlan)
  // The [NOT] EXISTS and x [NOT] IN conjuncts of the SELECT WHERE clauses being bound, whose
  // hashed form the planner's decorrelation rule decides (SubqueryPlan::deferred).
  std::unordered_set<const ast::Expr*> where_subquery_conjuncts_;
  // Inside INTERSECT ALL / EXCEPT: where PostgreSQL refuses a recursive reference.
  const char* recursion_context_ = nullptr;

  uint64_t session_ = 0;
  ViewDependencies* deps_ = nullptr;
  int view_depth_ = 0;                      // views being expanded inside each other
  const char* write_verb_ = "insert into";  // the DML being bound, for CannotChangeView
};

}  // namespace meridian::exec
