// Meridian's SQL abstract syntax tree: the only thing that leaves parser/ (no ANTLR type does).
// Nodes own their children through unique_ptr. Every node records the 1-based character position
// of its first token in the request text, so later errors (42703, 42804, ...) can point at it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace meridian::ast {

// Position of a node's first token: 1-based character offset into the whole request text (as
// PostgreSQL's ErrorResponse 'P'), and 1-based line and column. 0 = unknown.
struct Location {
  uint32_t position = 0;
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct SelectStmt;
struct Statement;
struct OrderItem;
struct WindowSpec;

enum class ExprKind {
  kLiteral,     // literal_kind + text / bool_value
  kColumnRef,   // table (may be empty) + name
  kStar,        // `*` or `table.*` in a select list (table may be empty); count(*) uses star flag
  kParam,       // $n: param_index (1-based)
  kUnary,       // unary_op, children[0]
  kBinary,      // binary_op, children[0], children[1]
  kIsNull,      // children[0] IS [NOT] NULL; negated for IS NOT NULL
  kFunction,    // name(children...), distinct, star for count(*)
  kCast,        // CAST(children[0] AS cast_type) or children[0]::cast_type
  kCase,        // CASE [children[0] if has_case_operand] WHEN/THEN pairs [ELSE]: see below
  kInList,      // children[0] [NOT] IN (children[1..])
  kBetween,     // children[0] [NOT] BETWEEN children[1] AND children[2]
  kSubquery,    // (SELECT ...) as a scalar: subquery
  kExists,      // [NOT] EXISTS (subquery)
  kInSubquery,  // children[0] [NOT] IN (subquery); children[0] binary_op ANY|ALL (subquery)
  kQuantifiedArray,  // children[0] binary_op ANY|ALL (children[1]), children[1] an array
  kArray,            // ARRAY[children...]; ARRAY(subquery) when subquery is set
  kSubscript,        // children[0][children[1]]; a slice [children[1]:children[2]] if slice
  kFieldSelect,      // (children[0]).name: a field of a record value
  // children[0] IS [NOT] {TRUE | FALSE | UNKNOWN}: literal_kind kBool with bool_value for
  // TRUE/FALSE, kNull for UNKNOWN; negated for IS NOT.
  kBooleanTest,
};

enum class LiteralKind { kNull, kBool, kInteger, kFloat, kString };

enum class UnaryOp { kNeg, kPlus, kNot };

enum class BinaryOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kConcat,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kAnd,
  kOr,
  kLike,
  kNotLike,
  kILike,           // ILIKE (case-insensitive LIKE)
  kNotILike,        // NOT ILIKE
  kRegexMatch,      // ~   (POSIX regular expression, case-sensitive)
  kRegexNotMatch,   // !~
  kRegexIMatch,     // ~*  (case-insensitive)
  kRegexNotIMatch,  // !~*
  // a IS [NOT] DISTINCT FROM b: equality in which NULL equals NULL (never NULL itself).
  kIsDistinctFrom,
  kIsNotDistinctFrom,
};

// PostgreSQL's name of a binary operator: "+", "<>", "||", "AND", "~~" (LIKE), "!~~" (NOT LIKE).
inline const char* OperatorName(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kMod:
      return "%";
    case BinaryOp::kConcat:
      return "||";
    case BinaryOp::kEq:
      return "=";
    case BinaryOp::kNe:
      return "<>";
    case BinaryOp::kLt:
      return "<";
    case BinaryOp::kLe:
      return "<=";
    case BinaryOp::kGt:
      return ">";
    case BinaryOp::kGe:
      return ">=";
    case BinaryOp::kAnd:
      return "AND";
    case BinaryOp::kOr:
      return "OR";
    case BinaryOp::kLike:
      return "~~";
    case BinaryOp::kNotLike:
      return "!~~";
    case BinaryOp::kILike:
      return "~~*";
    case BinaryOp::kNotILike:
      return "!~~*";
    case BinaryOp::kRegexMatch:
      return "~";
    case BinaryOp::kRegexNotMatch:
      return "!~";
    case BinaryOp::kRegexIMatch:
      return "~*";
    case BinaryOp::kRegexNotIMatch:
      return "!~*";
    case BinaryOp::kIsDistinctFrom:
      return "IS DISTINCT FROM";
    case BinaryOp::kIsNotDistinctFrom:
      return "IS NOT DISTINCT FROM";
  }
  return "?";
}

// A type as written: name is canonical lower case, one of "integer", "smallint", "bigint",
// "double precision", "real", "text", "varchar", "char", "boolean", "numeric", "date",
// "timestamp" (INT/INT4 → "integer", INT8 → "bigint", FLOAT/FLOAT8 → "double precision",
// FLOAT4 → "real", CHARACTER VARYING → "varchar", BOOL → "boolean", DECIMAL → "numeric",
// TIMESTAMPTZ / WITH TIME ZONE → "timestamp", ...). modifier = n of VARCHAR(n)/CHAR(n),
// (p << 16) | s of NUMERIC(p,s), p of TIMESTAMP(p), else -1.
struct TypeSpec {
  std::string name;
  int32_t modifier = -1;
  bool array = false;  // name[] / name ARRAY: a one-dimensional array of the type
  Location loc;
};

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  Location loc;

  // kLiteral: numbers as written ("42", "1.5e3"); strings with quotes removed and '' unescaped.
  LiteralKind literal_kind = LiteralKind::kNull;
  std::string text;
  bool bool_value = false;

  // kColumnRef / kStar: optional qualifier and column name (identifiers are lower-cased unless
  // quoted, as PostgreSQL does). kFunction: name is the lower-cased function name.
  std::string table;
  std::string name;

  UnaryOp unary_op = UnaryOp::kNeg;
  BinaryOp binary_op = BinaryOp::kAdd;
  bool negated = false;   // IS NOT NULL, NOT IN, NOT BETWEEN, NOT EXISTS
  bool all = false;       // kInSubquery: x op ALL (subquery); else x op ANY (IN is = ANY)
  bool distinct = false;  // count(DISTINCT x)
  bool star = false;      // count(*); on a kStar: written (t).*
  // kFunction: agg(args ORDER BY ...) and agg(...) FILTER (WHERE filter); empty/null if none.
  std::vector<OrderItem> agg_order;
  ExprPtr filter;
  bool slice = false;   // kSubscript: a[lower:upper]
  int param_index = 0;  // kParam

  // kCase: has_case_operand tells whether children[0] is the CASE operand; the rest are
  // WHEN, THEN pairs, then the ELSE expression if has_else.
  bool has_case_operand = false;
  bool has_else = false;

  TypeSpec cast_type;  // kCast

  std::vector<ExprPtr> children;
  std::unique_ptr<SelectStmt> subquery;  // kSubquery, kExists, kInSubquery
  std::unique_ptr<WindowSpec> over;      // kFunction: f(...) OVER ...; null without OVER
};

struct SelectItem {
  ExprPtr expr;       // kStar for * and t.*
  std::string alias;  // empty when none
  Location loc;
};

// How a FROM table joins the tables before it (FROM is a left-deep chain).
enum class JoinType { kComma, kCross, kInner, kLeft, kRight, kFull };

struct TableRef {
  std::string name;                      // empty for a subquery in FROM
  std::string schema;                    // schema.name as written; empty when unqualified
  std::string alias;                     // empty when none
  std::unique_ptr<SelectStmt> subquery;  // (SELECT ...) AS alias; null for a table
  ExprPtr function;                      // f(args) [AS alias [(col)]]: a kFunction call
  bool lateral = false;  // LATERAL (subquery); always set for f(args), as PostgreSQL implies it
  std::vector<std::string> column_aliases;  // AS alias (a, b)
  Location loc;
  JoinType join = JoinType::kComma;        // kComma for the first table
  ExprPtr on;                              // JOIN ... ON; null otherwise
  std::vector<std::string> using_columns;  // JOIN ... USING (a, b)
  Location join_loc;                       // the JOIN keyword
};

struct OrderItem {
  ExprPtr expr;
  bool descending = false;
  std::optional<bool>
      nulls_first;  // unset: PostgreSQL default (NULLS LAST for ASC, FIRST for DESC)
};

// A window frame: {RANGE | ROWS | GROUPS} BETWEEN start AND end [EXCLUDE ...]. A frame written
// with only a start has end kCurrentRow. The transformer rejects the orders PostgreSQL's grammar
// rejects (start UNBOUNDED FOLLOWING, end UNBOUNDED PRECEDING, a preceding end after a current
// or following start: 42P20).
struct WindowFrame {
  enum class Mode { kRange, kRows, kGroups };
  enum class Bound {
    kUnboundedPreceding,
    kPreceding,
    kCurrentRow,
    kFollowing,
    kUnboundedFollowing
  };
  Mode mode = Mode::kRange;
  Bound start = Bound::kUnboundedPreceding;
  Bound end = Bound::kCurrentRow;
  ExprPtr start_offset, end_offset;  // the n of n PRECEDING / n FOLLOWING; null otherwise
  bool exclusion = false;            // EXCLUDE CURRENT ROW | GROUP | TIES (not NO OTHERS)
  Location loc;                      // the RANGE/ROWS/GROUPS keyword
  Location start_loc, end_loc;
};

// OVER (...) of a window function call, or one WINDOW name AS (...) definition. existing names
// the window this one starts from (OVER (w ORDER BY x)); reference_only is OVER w, which is
// that window exactly.
struct WindowSpec {
  std::string name;      // WINDOW clause: the window's name; empty in OVER
  std::string existing;  // empty when none
  bool reference_only = false;
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  std::unique_ptr<WindowFrame> frame;  // null: the default frame
  Location loc;                        // OVER's parenthesis / the name
};

enum class SetOp { kNone, kUnion, kIntersect, kExcept };

// One query. A SELECT core uses the fields from distinct to having; a set operation
// (set_op != kNone) uses set_left/set_right instead. ORDER BY, LIMIT and OFFSET apply to the
// node's result either way.
// WITH name [(columns)] AS (query): a named query FROM may refer to. Under WITH RECURSIVE
// (recursive set) every query of the list sees every other one and itself; the binder finds
// which ones refer to themselves. A data-modifying WITH query (INSERT, UPDATE or DELETE,
// only in the WITH list of a request's top-level statement: the parser refuses it elsewhere
// with 0A000) has statement set and query null; it runs once, before the statement, and its
// RETURNING rows are what its references read.
struct CommonTableExpr {
  std::string name;
  std::vector<std::string> columns;
  std::unique_ptr<SelectStmt> query;
  std::unique_ptr<Statement> statement;  // kInsert, kUpdate or kDelete
  Location loc;
  bool recursive = false;  // written under WITH RECURSIVE
};

// SELECT ... FOR UPDATE / FOR NO KEY UPDATE / FOR SHARE / FOR KEY SHARE [OF t [, ...]]
// [NOWAIT | SKIP LOCKED]. FOR READ ONLY parses to no clause at all. The parser rejects a locking
// clause on a set operation (0A000) and schema-qualified OF names (42601); checking that the OF
// names are FROM items, and PostgreSQL's other restrictions (DISTINCT, GROUP BY, aggregates), is
// left to the binder.
struct LockingClause {
  enum class Strength { kUpdate, kNoKeyUpdate, kShare, kKeyShare };
  Strength strength = Strength::kUpdate;
  std::vector<std::string> of_tables;  // empty: every table of the FROM clause
  bool nowait = false;
  bool skip_locked = false;
  Location loc;                         // the FOR keyword
  std::vector<Location> of_table_locs;  // one per of_tables entry
};

// PostgreSQL's name of a locking strength, for messages: "FOR UPDATE", "FOR KEY SHARE", ...
inline const char* LockingStrengthName(LockingClause::Strength strength) {
  switch (strength) {
    case LockingClause::Strength::kUpdate:
      return "FOR UPDATE";
    case LockingClause::Strength::kNoKeyUpdate:
      return "FOR NO KEY UPDATE";
    case LockingClause::Strength::kShare:
      return "FOR SHARE";
    case LockingClause::Strength::kKeyShare:
      return "FOR KEY SHARE";
  }
  return "FOR UPDATE";
}

// One element of GROUP BY when it has ROLLUP, CUBE, GROUPING SETS or (): expressions are
// indexes into SelectStmt::group_by (which owns them).
struct GroupingElement {
  enum class Kind { kExpr, kEmpty, kList, kRollup, kCube, kSets };
  Kind kind = Kind::kExpr;
  std::vector<size_t> exprs;              // kExpr: one; kList: (a, b, ...)
  std::vector<GroupingElement> children;  // kRollup/kCube: kExpr or kList items; kSets: any
  Location loc;
};

struct SelectStmt {
  std::vector<CommonTableExpr> with;  // WITH ... (visible to this query and its subqueries)
  SetOp set_op = SetOp::kNone;
  bool set_all = false;  // UNION ALL / INTERSECT ALL / EXCEPT ALL
  std::unique_ptr<SelectStmt> set_left, set_right;
  bool distinct = false;
  std::vector<ExprPtr> distinct_on;  // DISTINCT ON (exprs); distinct stays false then
  std::vector<SelectItem> items;
  std::vector<TableRef> from;  // empty: SELECT without FROM; several: comma join
  ExprPtr where;
  std::vector<ExprPtr> group_by;
  // GROUP BY with ROLLUP, CUBE, GROUPING SETS or (): every element in order (empty for a
  // plain list of expressions); group_by then holds the expressions they name.
  std::vector<GroupingElement> grouping;
  bool group_distinct = false;  // GROUP BY DISTINCT: duplicate grouping sets removed
  ExprPtr having;
  std::vector<WindowSpec> windows;  // WINDOW w AS (...), ...
  std::vector<OrderItem> order_by;
  ExprPtr limit;   // null when none (LIMIT ALL also gives null)
  ExprPtr offset;  // null when none
  // FOR UPDATE / SHARE ... in written order (also those written inside parentheses, as in
  // "(SELECT ... FOR UPDATE) LIMIT 1"); empty when none. Never set on a set operation node.
  std::vector<LockingClause> locking;
  Location loc;
};

// CHECK (expr) as a column or table constraint: name is empty unless CONSTRAINT name was
// written; text is the expression's exact source text (for the catalog).
struct CheckDef {
  std::string name;
  ExprPtr expr;
  std::string text;
  Location loc;
};

// REFERENCES t [(columns)] (column constraint) or FOREIGN KEY (columns) REFERENCES t [(...)]
// [MATCH ...] [ON DELETE action] [ON UPDATE action] [[NOT] DEFERRABLE] [INITIALLY ...].
// Actions: 'a' NO ACTION (default), 'r' RESTRICT, 'c' CASCADE, 'n' SET NULL, 'd' SET DEFAULT
// (PostgreSQL's confdeltype letters).
struct ForeignKeyDef {
  std::string name;                  // CONSTRAINT name; empty: the default name
  std::vector<std::string> columns;  // FOREIGN KEY (columns); empty for a column constraint
  std::string table;
  Location table_loc;
  std::vector<std::string> ref_columns;  // empty: the referenced table's primary key
  char match = 's';                      // 's' SIMPLE, 'f' FULL, 'p' PARTIAL
  char on_delete = 'a';
  char on_update = 'a';
  bool deferrable = false;          // DEFERRABLE (or INITIALLY DEFERRED) written
  bool initially_deferred = false;  // INITIALLY DEFERRED
  Location loc;
};

// One option of CREATE / ALTER SEQUENCE or of an identity column's (...) list.
struct SequenceOption {
  enum class Kind {
    kAs,         // AS type (type)
    kIncrement,  // INCREMENT [BY] value
    kMinValue,   // MINVALUE value; NO MINVALUE when no_value
    kMaxValue,   // MAXVALUE value; NO MAXVALUE when no_value
    kStart,      // START [WITH] value
    kRestart,    // RESTART [[WITH] value]: no_value when none is written
    kCache,      // CACHE value
    kCycle,      // [NO] CYCLE: no_value for NO CYCLE
    kOwnedBy,    // OWNED BY table.column (owned_table empty and owned_column "none": NONE)
  };
  Kind kind = Kind::kIncrement;
  std::string value;  // the number as written, with its sign
  bool no_value = false;
  TypeSpec type;
  std::string owned_table, owned_column;
  Location loc;
};

struct ColumnDef {
  std::string name;
  TypeSpec type;
  bool not_null = false;
  bool primary_key = false;      // column constraint PRIMARY KEY
  bool unique = false;           // column constraint UNIQUE
  std::string primary_key_name;  // CONSTRAINT name of the PRIMARY KEY; empty: default name
  std::string unique_name;       // CONSTRAINT name of the UNIQUE; empty: default name
  ExprPtr default_expr;          // null when no DEFAULT
  std::string default_text;      // DEFAULT's source text, exactly as written, for the catalog
  std::vector<CheckDef> checks;  // column constraints CHECK (expr)
  std::vector<ForeignKeyDef> references;
  // SERIAL / BIGSERIAL / SMALLSERIAL (type is then integer / bigint / smallint): an owned
  // sequence supplies the default, as PostgreSQL expands it.
  bool serial = false;
  // GENERATED ALWAYS ('a') / BY DEFAULT ('d') AS IDENTITY [(identity_options)]; 0 when none.
  char identity = 0;
  std::vector<SequenceOption> identity_options;
  Location loc;
};

// A TEMP table's ON COMMIT action (PostgreSQL's; a permanent table has kNone).
enum class OnCommit { kNone, kPreserveRows, kDeleteRows, kDrop };

struct CreateTableStmt {
  std::string table;  // a relation name as written (QualifyName below)
  bool if_not_exists = false;
  bool temp = false;  // CREATE TEMP | TEMPORARY TABLE
  OnCommit on_commit = OnCommit::kNone;
  std::vector<ColumnDef> columns;
  std::vector<std::string> primary_key;  // table constraint PRIMARY KEY (a, b)
  std::string primary_key_name;          // its CONSTRAINT name; empty: default name
  Location primary_key_loc;
  struct UniqueKey {
    std::vector<std::string> columns;
    std::string name;  // CONSTRAINT name; empty: default name
    Location loc;
  };
  std::vector<UniqueKey> unique_keys;  // table constraints UNIQUE (a, b), in order
  std::vector<CheckDef> checks;        // table constraints CHECK (expr), in order
  std::vector<ForeignKeyDef> foreign_keys;
};

// CREATE TABLE [IF NOT EXISTS] t [(column names)] AS query [WITH [NO] DATA].
struct CreateTableAsStmt {
  std::string table;
  Location table_loc;
  bool if_not_exists = false;
  bool temp = false;
  OnCommit on_commit = OnCommit::kNone;
  std::vector<std::string> columns;  // renames the query's first columns; empty: none
  std::unique_ptr<SelectStmt> query;
  bool with_data = true;
};

// One action of ALTER TABLE.
struct AlterTableCmd {
  enum class Kind {
    kAddColumn,         // column (IF NOT EXISTS: missing_ok)
    kDropColumn,        // name (IF EXISTS: missing_ok)
    kAddConstraint,     // check, or key_columns (PRIMARY KEY / UNIQUE), or column.references
    kDropConstraint,    // name (IF EXISTS: missing_ok)
    kSetDefault,        // name, default_expr/default_text
    kDropDefault,       // name
    kSetNotNull,        // name
    kDropNotNull,       // name
    kRenameColumn,      // name → new_name
    kRenameConstraint,  // name → new_name
    kRenameTable,       // new_name
  };
  Kind kind = Kind::kAddColumn;
  ColumnDef column;
  CheckDef check;
  std::string name;
  std::string new_name;
  bool missing_ok = false;
  bool cascade = false;
  ExprPtr default_expr;
  std::string default_text;
  Location loc;
  // ADD [CONSTRAINT name] PRIMARY KEY (cols) / UNIQUE (cols): the columns (name: the
  // constraint's name, empty for the default one).
  std::vector<std::string> key_columns;
  bool primary_key = false;
};

// ALTER TABLE [IF EXISTS] t action [, ...]; a RENAME is always alone.
struct AlterTableStmt {
  std::string table;
  Location table_loc;
  bool if_exists = false;
  std::vector<AlterTableCmd> cmds;
};

struct IndexColumn {
  std::string name;  // empty for an expression
  ExprPtr expr;      // (expr) or func(args); null for a column
  std::string text;  // the expression's source text (without the outer parentheses)
  bool descending = false;
  std::optional<bool> nulls_first;  // unset: NULLS LAST for ASC, FIRST for DESC
  Location loc;
};

// CREATE [UNIQUE] INDEX [[IF NOT EXISTS] name] ON table [USING method] (columns).
struct CreateIndexStmt {
  std::string name;  // empty: derived from the table and columns, as PostgreSQL does
  bool unique = false;
  bool if_not_exists = false;
  std::string table;
  Location table_loc;
  std::string method;  // lower-cased; empty when USING is absent
  Location method_loc;
  std::vector<IndexColumn> columns;
  ExprPtr where;           // a partial index's predicate; null for none
  std::string where_text;  // its source text
  Location where_loc;
};

struct DropIndexStmt {
  std::vector<std::string> names;
  std::vector<Location> name_locs;
  bool if_exists = false;
};

// ANALYZE [t, ...] and VACUUM [options] [t, ...] (both StatementKind::kAnalyze).
struct AnalyzeStmt {
  std::vector<std::string> tables;  // empty: every table
  std::vector<Location> table_locs;
  bool vacuum = false;  // VACUUM: dead versions are collected (a checkpoint)
  bool analyze = true;  // statistics gathered (VACUUM: only with ANALYZE)
};

// TRUNCATE [TABLE] t [, ...]: empties the tables (and their indexes) at once.
struct TruncateStmt {
  std::vector<std::string> tables;
  std::vector<Location> table_locs;
};

// LOCK [TABLE] [ONLY] name [, ...] [IN mode MODE] [NOWAIT]: mode is PostgreSQL's lock mode
// name in upper case with single spaces ("ACCESS EXCLUSIVE", the default).
struct LockStmt {
  std::vector<std::string> tables;
  std::vector<Location> table_locs;
  std::string mode = "ACCESS EXCLUSIVE";
  bool nowait = false;
};

// DROP TABLE / DROP VIEW [IF EXISTS] name [, ...] [CASCADE | RESTRICT].
struct DropTableStmt {
  std::vector<std::string> tables;
  std::vector<Location> table_locs;
  bool if_exists = false;
  bool cascade = false;  // CASCADE: dependent views go too (RESTRICT, the default: 2BP01)
};

// CREATE [OR REPLACE] [TEMP | TEMPORARY] VIEW name [(columns)] AS query. query_text is the
// query's exact source text (what the catalog stores and re-parses when the view is used).
struct CreateViewStmt {
  std::string name;
  Location name_loc;
  bool or_replace = false;
  bool temporary = false;
  std::vector<std::string> columns;  // renames the query's first columns; empty: none
  std::vector<Location> column_locs;
  std::unique_ptr<SelectStmt> query;
  std::string query_text;
};

struct Assignment {
  std::string column;
  ExprPtr value;  // null when SET col = DEFAULT
  Location loc;
  // SET col[lower] = v or col[lower:upper] = array: one entry per [...] written.
  struct Subscript {
    ExprPtr lower;
    ExprPtr upper;  // null unless a slice
  };
  std::vector<Subscript> subscripts;
  // SET col.field = v (or col[i].field): the first field named, after field_after of the
  // subscripts; empty when none. Only refused (42804): no column type here is composite.
  std::string field;
  size_t field_after = 0;
};

// INSERT ... ON CONFLICT: the arbiter (a column list naming a unique index's columns, or a
// constraint's name; neither: every unique index, DO NOTHING only) and the action.
struct OnConflict {
  std::vector<std::string> columns;  // an empty name where target_exprs has an expression
  std::vector<Location> column_locs;
  std::vector<ExprPtr> target_exprs;  // parallel to columns: (expr) / func(args), else null
  ExprPtr target_where;               // ON CONFLICT (...) WHERE predicate (a partial index)
  std::string constraint;             // ON CONSTRAINT name
  Location constraint_loc;
  bool do_update = false;  // false: DO NOTHING
  std::vector<Assignment> assignments;
  ExprPtr where;  // DO UPDATE ... WHERE
  Location loc;
};

struct InsertStmt {
  std::vector<CommonTableExpr> with;  // WITH ... before the statement
  std::string table;
  Location table_loc;
  std::string alias;                 // INSERT INTO t AS alias; empty when none
  std::vector<std::string> columns;  // empty: all columns in order
  std::vector<Location> column_locs;
  // INSERT INTO t (a[1], a[2], ...): when any listed column has subscripts or a field, one
  // Assignment per listed column (no value) holding them; empty otherwise.
  std::vector<Assignment> column_targets;
  std::vector<std::vector<ExprPtr>> values;  // VALUES rows; a null ExprPtr where DEFAULT is written
  std::unique_ptr<SelectStmt> select;        // INSERT ... SELECT (values empty then)
  bool default_values = false;               // DEFAULT VALUES (values and select empty)
  // OVERRIDING SYSTEM VALUE ('s') / OVERRIDING USER VALUE ('u'); 0 when not written.
  char overriding = 0;
  std::vector<SelectItem> returning;  // RETURNING list; empty when none
  Location returning_loc;
  std::unique_ptr<OnConflict> on_conflict;  // null when no ON CONFLICT
};

// UPDATE t [[AS] alias] SET ... [FROM ...] [WHERE ...]: from is a FROM list as in SELECT
// (comma items and join chains), joined to the target by WHERE.
struct UpdateStmt {
  std::vector<CommonTableExpr> with;  // WITH ... before the statement
  std::string table;
  Location table_loc;
  std::string alias;  // empty when none
  std::vector<Assignment> assignments;
  std::vector<TableRef> from;
  ExprPtr where;
  std::vector<SelectItem> returning;
  Location returning_loc;
};

// DELETE FROM t [[AS] alias] [USING ...] [WHERE ...]: using is a FROM list as in SELECT.
struct DeleteStmt {
  std::vector<CommonTableExpr> with;  // WITH ... before the statement
  std::string table;
  Location table_loc;
  std::string alias;  // empty when none
  std::vector<TableRef> using_from;
  ExprPtr where;
  std::vector<SelectItem> returning;
  Location returning_loc;
};

// CREATE [TEMP] SEQUENCE [IF NOT EXISTS] name [options] / ALTER SEQUENCE [IF EXISTS] name
// options. The schema, when written, must be public (the binder checks).
struct SequenceStmt {
  std::string schema;
  std::string name;
  Location name_loc;
  bool if_not_exists = false;  // CREATE
  bool if_exists = false;      // ALTER
  bool temporary = false;
  std::vector<SequenceOption> options;
};

enum class StatementKind {
  kSelect,
  kInsert,
  kUpdate,
  kDelete,
  kCreateTable,
  kCreateTableAs,  // create_table_as
  kAlterTable,     // alter_table
  kDropTable,
  kCreateView,  // create_view
  kDropView,    // drop_table (the names are views)
  kTruncate,
  kCreateIndex,
  kDropIndex,
  kExplain,
  kAnalyze,
  kSet,    // variable
  kShow,   // variable
  kReset,  // variable
  kCopy,
  kTransaction,     // transaction
  kPrepare,         // prepare
  kExecute,         // execute
  kDeallocate,      // deallocate
  kCreateSequence,  // sequence
  kAlterSequence,   // sequence
  kDropSequence,    // drop_table (the names are sequences)
  kCreateSchema,    // schema
  kDropSchema,      // schema
  kAlterSchema,     // schema (RENAME TO)
  kLock,            // lock
};

// CREATE SCHEMA [IF NOT EXISTS] name [AUTHORIZATION role] (names[0]; the role's name when
// only AUTHORIZATION is given); DROP SCHEMA [IF EXISTS] names [CASCADE | RESTRICT]; ALTER
// SCHEMA names[0] RENAME TO new_name.
struct SchemaStmt {
  std::vector<std::string> names;
  std::vector<Location> locs;
  std::string role;  // AUTHORIZATION; empty: none
  std::string new_name;
  bool missing_ok = false;  // IF [NOT] EXISTS
  bool cascade = false;
};

// A relation name as the parser hands it to the engine: "name" when written unqualified
// (resolved through search_path), "schema" + kSchemaSeparator + "name" when written
// schema.name. The separator cannot appear in a PostgreSQL identifier.
inline constexpr char kSchemaSeparator = '\x1f';
inline std::string QualifyName(const std::string& schema, const std::string& name) {
  return schema.empty() ? name : schema + kSchemaSeparator + name;
}
// Splits a written name; *schema is empty when it was unqualified.
inline void SplitName(const std::string& written, std::string* schema, std::string* name) {
  const size_t sep = written.find(kSchemaSeparator);
  if (sep == std::string::npos) {
    schema->clear();
    *name = written;
  } else {
    *schema = written.substr(0, sep);
    *name = written.substr(sep + 1);
  }
}
// The written name as PostgreSQL prints it in messages: schema.name.
inline std::string DisplayName(std::string written) {
  for (char& c : written) {
    if (c == kSchemaSeparator) c = '.';
  }
  return written;
}

// SET / SHOW / RESET of a run-time parameter. name is lower-cased ("timezone" for TIME ZONE);
// all is SHOW ALL / RESET ALL. SET: values as written (strings unquoted, identifiers folded,
// numbers with their sign), or to_default for TO DEFAULT; local for SET LOCAL.
struct VariableStmt {
  std::string name;
  Location name_loc;
  bool all = false;
  bool local = false;
  bool to_default = false;
  std::vector<std::string> values;
};

// COPY table [(columns)] FROM STDIN / COPY {table [(columns)] | (query)} TO STDOUT with its
// options (validated by the parser: FORMAT text|csv, HEADER, DELIMITER, NULL, QUOTE, ESCAPE).
struct CopyStmt {
  std::string schema;  // as written; empty when unqualified
  std::string table;   // empty for COPY (query) TO
  Location table_loc;
  std::vector<std::string> columns;  // empty: every column
  std::vector<Location> column_locs;
  std::unique_ptr<SelectStmt> query;  // COPY (query) TO STDOUT
  bool from = true;                   // FROM STDIN; false for TO STDOUT
  bool csv = false;                   // FORMAT csv (else text)
  bool header = false;
  char delimiter = '\t';    // text: tab; csv: ','
  std::string null_string;  // text: \N; csv: empty
  char quote = '"';         // csv only
  char escape = '"';        // csv only
};

// Transaction control (BEGIN, COMMIT, ...). isolation: "" when not given, else one of
// "read uncommitted", "read committed", "repeatable read", "serializable" (lower case).
// Modes (isolation, read_only, deferrable) are set only for kBegin, kSetTransaction and
// kSetSessionDefaults; a mode given twice with different values is rejected by the parser (42601
// "conflicting or redundant options"), the same value twice is accepted.
struct TransactionStmt {
  enum class Action {
    kBegin,           // BEGIN [WORK | TRANSACTION] [modes], START TRANSACTION [modes]
    kCommit,          // COMMIT [WORK | TRANSACTION] [AND NO CHAIN], END [WORK | TRANSACTION]
    kRollback,        // ROLLBACK [WORK | TRANSACTION] [AND NO CHAIN], ABORT [WORK | TRANSACTION]
    kSavepoint,       // SAVEPOINT name
    kRelease,         // RELEASE [SAVEPOINT] name
    kRollbackTo,      // ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name
    kSetTransaction,  // SET [SESSION | LOCAL] TRANSACTION modes
    kSetSessionDefaults,  // SET SESSION CHARACTERISTICS AS TRANSACTION modes
  };
  Action action = Action::kBegin;
  std::string isolation;
  std::optional<bool> read_only;   // READ ONLY → true, READ WRITE → false
  std::optional<bool> deferrable;  // [NOT] DEFERRABLE (accepted, no effect)
  std::string savepoint;           // folded like any identifier
  Location savepoint_loc;          // kSavepoint, kRelease, kRollbackTo: the name
  // kBegin written as START TRANSACTION, whose PostgreSQL command tag is "START TRANSACTION"
  // (BEGIN's is "BEGIN"; END's is "COMMIT", ABORT's and ROLLBACK TO's "ROLLBACK", RELEASE's
  // "RELEASE", SAVEPOINT's "SAVEPOINT", SET TRANSACTION's and SET SESSION CHARACTERISTICS' "SET").
  bool start_transaction = false;
};

struct Statement;

// PREPARE name [(type [, ...])] AS statement: statement is a SELECT, INSERT, UPDATE or DELETE
// (PostgreSQL's PreparableStmt). The statement is shared so that the session can keep it after
// the request that prepared it is gone; its locations and text are those of the PREPARE's
// request. param_types are as written (no declared type: every $n is inferred from context).
struct PrepareStmt {
  std::string name;  // folded like any identifier
  Location name_loc;
  std::vector<TypeSpec> param_types;
  std::shared_ptr<Statement> statement;
};

// EXECUTE name [(expr [, ...])]: runs a prepared statement with args as $1, $2, ...
struct ExecuteStmt {
  std::string name;
  Location name_loc;
  std::vector<ExprPtr> args;  // empty when no parentheses are written (`EXECUTE p()` is 42601)
};

// DEALLOCATE [PREPARE] {name | ALL}.
struct DeallocateStmt {
  std::string name;  // empty for ALL
  Location name_loc;
  bool all = false;
};

// One statement of a request; exactly the pointer matching kind is set.
struct Statement {
  StatementKind kind = StatementKind::kSelect;
  Location loc;
  std::string text;  // this statement's source text, without the trailing ';'
  // NOTICEs parsing raised, e.g. PostgreSQL's `identifier "..." will be truncated to "..."`.
  std::vector<std::string> notices;
  std::unique_ptr<SelectStmt> select;
  std::unique_ptr<InsertStmt> insert;
  std::unique_ptr<UpdateStmt> update;
  std::unique_ptr<DeleteStmt> del;
  std::unique_ptr<CreateTableStmt> create_table;
  std::unique_ptr<CreateTableAsStmt> create_table_as;
  std::unique_ptr<AlterTableStmt> alter_table;
  std::unique_ptr<DropTableStmt> drop_table;  // kDropTable, kDropView
  std::unique_ptr<CreateViewStmt> create_view;
  std::unique_ptr<TruncateStmt> truncate;
  std::unique_ptr<CreateIndexStmt> create_index;
  std::unique_ptr<DropIndexStmt> drop_index;
  std::unique_ptr<AnalyzeStmt> analyze;
  std::unique_ptr<VariableStmt> variable;  // kSet, kShow, kReset
  std::unique_ptr<CopyStmt> copy;
  std::unique_ptr<TransactionStmt> transaction;  // kTransaction
  std::unique_ptr<PrepareStmt> prepare;          // kPrepare
  std::unique_ptr<ExecuteStmt> execute;          // kExecute
  std::unique_ptr<DeallocateStmt> deallocate;    // kDeallocate
  std::unique_ptr<SequenceStmt> sequence;        // kCreateSequence, kAlterSequence
  std::unique_ptr<SchemaStmt> schema;            // kCreateSchema, kDropSchema, kAlterSchema
  std::unique_ptr<LockStmt> lock;                // kLock
  // kExplain: the statement explained, and whether it runs (EXPLAIN ANALYZE).
  std::unique_ptr<Statement> explained;
  bool explain_analyze = false;
  bool explain_costs = true;            // COSTS OFF: no (cost=...) on the plan lines
  bool explain_timing = true;           // TIMING OFF: ANALYZE without actual times
  std::optional<bool> explain_summary;  // SUMMARY: default on with ANALYZE only
};

}  // namespace meridian::ast
