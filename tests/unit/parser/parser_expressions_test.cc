// Expression parsing: literals, operators and PostgreSQL precedence, casts, CASE, IN, BETWEEN,
// subqueries, functions, parameters, and ParseExpression on its own.

#include "parser_test_util.h"

namespace meridian::parser::testing {
namespace {

TEST(ParserExpressions, Literals) {
  EXPECT_EQ(DumpExpr("42"), "42");
  EXPECT_EQ(DumpExpr("1.5"), "1.5f");
  EXPECT_EQ(DumpExpr("1.5e3"), "1.5e3f");
  EXPECT_EQ(DumpExpr("2E-3"), "2E-3f");
  EXPECT_EQ(DumpExpr(".5"), ".5f");
  EXPECT_EQ(DumpExpr("1."), "1.f");
  EXPECT_EQ(DumpExpr("'it''s'"), "'it's'");
  EXPECT_EQ(DumpExpr("''"), "''");
  EXPECT_EQ(DumpExpr("TRUE"), "TRUE");
  EXPECT_EQ(DumpExpr("false"), "FALSE");
  EXPECT_EQ(DumpExpr("NuLL"), "NULL");
  EXPECT_EQ(DumpExpr("99999999999999999999999"), "99999999999999999999999");
}

TEST(ParserExpressions, LiteralKindsAndText) {
  auto e = ParseExpression("'a''b'");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ast::ExprKind::kLiteral);
  EXPECT_EQ((*e)->literal_kind, ast::LiteralKind::kString);
  EXPECT_EQ((*e)->text, "a'b");
  auto f = ParseExpression("3e2");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->literal_kind, ast::LiteralKind::kFloat);
  auto i = ParseExpression("7");
  ASSERT_TRUE(i.ok());
  EXPECT_EQ((*i)->literal_kind, ast::LiteralKind::kInteger);
}

TEST(ParserExpressions, NegativeNumbersFoldIntoLiterals) {
  EXPECT_EQ(DumpExpr("-5"), "-5");
  EXPECT_EQ(DumpExpr("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(DumpExpr("-1.5"), "-1.5f");
  EXPECT_EQ(DumpExpr("- -5"), "(- -5)");
  EXPECT_EQ(DumpExpr("-a"), "(- a)");
  EXPECT_EQ(DumpExpr("+5"), "(+ 5)");
  EXPECT_EQ(DumpExpr("1 - -2"), "(- 1 -2)");
  auto e = ParseExpression("  -5");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->loc.position, 3u);
}

TEST(ParserExpressions, ArithmeticPrecedence) {
  EXPECT_EQ(DumpExpr("1 + 2 * 3"), "(+ 1 (* 2 3))");
  EXPECT_EQ(DumpExpr("(1 + 2) * 3"), "(* (+ 1 2) 3)");
  EXPECT_EQ(DumpExpr("1 - 2 - 3"), "(- (- 1 2) 3)");
  EXPECT_EQ(DumpExpr("8 / 4 / 2"), "(/ (/ 8 4) 2)");
  EXPECT_EQ(DumpExpr("a % 3 + b"), "(+ (% a 3) b)");
  EXPECT_EQ(DumpExpr("-a * b"), "(* (- a) b)");
  EXPECT_EQ(DumpExpr("'a' || 'b' || 1 + 2"), "(|| (|| 'a' 'b') (+ 1 2))");
  EXPECT_EQ(DumpExpr("a+b*2+c*3+d*4+e*5"), "(+ (+ (+ (+ a (* b 2)) (* c 3)) (* d 4)) (* e 5))");
}

TEST(ParserExpressions, BooleanPrecedence) {
  EXPECT_EQ(DumpExpr("a OR b AND c"), "(OR a (AND b c))");
  EXPECT_EQ(DumpExpr("NOT a = b AND c"), "(AND (NOT (= a b)) c)");
  EXPECT_EQ(DumpExpr("NOT NOT a"), "(NOT (NOT a))");
  EXPECT_EQ(DumpExpr("a AND b OR c AND d"), "(OR (AND a b) (AND c d))");
  EXPECT_EQ(DumpExpr("a = 1 OR b <> 2"), "(OR (= a 1) (<> b 2))");
  EXPECT_EQ(DumpExpr("a != 1"), "(<> a 1)");
  EXPECT_EQ(DumpExpr("a < b + 1"), "(< a (+ b 1))");
  EXPECT_EQ(DumpExpr("a <= b"), "(<= a b)");
  EXPECT_EQ(DumpExpr("a >= b"), "(>= a b)");
  EXPECT_EQ(DumpExpr("a > b"), "(> a b)");
}

TEST(ParserExpressions, IsNull) {
  EXPECT_EQ(DumpExpr("a IS NULL"), "(ISNULL a)");
  EXPECT_EQ(DumpExpr("a IS NOT NULL"), "(ISNOTNULL a)");
  EXPECT_EQ(DumpExpr("a = b IS NULL"), "(ISNULL (= a b))");
  EXPECT_EQ(DumpExpr("NOT a IS NULL"), "(NOT (ISNULL a))");
  EXPECT_EQ(DumpExpr("a IS NULL IS NOT NULL"), "(ISNOTNULL (ISNULL a))");
  EXPECT_EQ(DumpExpr("a + 1 IS NULL AND b"), "(AND (ISNULL (+ a 1)) b)");
}

// PostgreSQL's IS level: below the comparisons, above NOT; nothing follows DISTINCT FROM b.
TEST(ParserExpressions, BooleanTestsAndDistinctFrom) {
  EXPECT_EQ(DumpExpr("a IS TRUE"), "(ISTRUE a)");
  EXPECT_EQ(DumpExpr("a IS NOT FALSE"), "(ISNOTFALSE a)");
  EXPECT_EQ(DumpExpr("a IS UNKNOWN"), "(ISUNKNOWN a)");
  EXPECT_EQ(DumpExpr("a = b IS NOT TRUE"), "(ISNOTTRUE (= a b))");
  EXPECT_EQ(DumpExpr("NOT a IS TRUE"), "(NOT (ISTRUE a))");
  EXPECT_EQ(DumpExpr("a ISNULL"), "(ISNULL a)");
  EXPECT_EQ(DumpExpr("a NOTNULL"), "(ISNOTNULL a)");
  EXPECT_EQ(DumpExpr("a IS DISTINCT FROM b"), "(IS DISTINCT FROM a b)");
  EXPECT_EQ(DumpExpr("a = 1 IS NOT DISTINCT FROM b = 2"), "(IS NOT DISTINCT FROM (= a 1) (= b 2))");
  EXPECT_EQ(DumpExpr("a IS TRUE IS DISTINCT FROM b"), "(IS DISTINCT FROM (ISTRUE a) b)");
  EXPECT_EQ(DumpExpr("a OPERATOR(pg_catalog.<) ANY (b)"), "(< ANY a b)");
  EXPECT_FALSE(ParseExpression("a IS DISTINCT FROM b IS NULL").ok());
  EXPECT_FALSE(ParseExpression("a IS MAYBE").ok());
}

TEST(ParserExpressions, LikeBetweenIn) {
  EXPECT_EQ(DumpExpr("a LIKE 'x%'"), "(~~ a 'x%')");
  EXPECT_EQ(DumpExpr("a NOT LIKE 'x' || 'y'"), "(!~~ a (|| 'x' 'y'))");
  EXPECT_EQ(DumpExpr("a BETWEEN 1 AND 2"), "(BETWEEN a 1 2)");
  EXPECT_EQ(DumpExpr("a NOT BETWEEN b - 1 AND c + 1"), "(NOTBETWEEN a (- b 1) (+ c 1))");
  EXPECT_EQ(DumpExpr("a BETWEEN 1 AND 2 AND b"), "(AND (BETWEEN a 1 2) b)");
  EXPECT_EQ(DumpExpr("x = 1 AND a BETWEEN b AND c OR d"), "(OR (AND (= x 1) (BETWEEN a b c)) d)");
  EXPECT_EQ(DumpExpr("a IN (1, 2, 3)"), "(IN a 1 2 3)");
  EXPECT_EQ(DumpExpr("a NOT IN (b + 1)"), "(NOTIN a (+ b 1))");
  EXPECT_EQ(DumpExpr("a IN (SELECT b FROM t)"), "(INSUB a)");
  EXPECT_EQ(DumpExpr("a NOT IN (SELECT b FROM t)"), "(NOTINSUB a)");
  EXPECT_EQ(DumpExpr("a + 1 IN (1) = TRUE"), "(= (IN (+ a 1) 1) TRUE)");
}

TEST(ParserExpressions, Casts) {
  EXPECT_EQ(DumpExpr("CAST(a AS INTEGER)"), "(CAST a integer)");
  EXPECT_EQ(DumpExpr("a::text"), "(CAST a text)");
  EXPECT_EQ(DumpExpr("a::int::varchar(5)"), "(CAST (CAST a integer) varchar(5))");
  EXPECT_EQ(DumpExpr("-a::bigint"), "(- (CAST a bigint))");
  EXPECT_EQ(DumpExpr("1 + 2::real"), "(+ 1 (CAST 2 real))");
  EXPECT_EQ(DumpExpr("'1'::double precision"), "(CAST '1' double precision)");
  EXPECT_EQ(DumpExpr("CAST(x AS character varying(10))"), "(CAST x varchar(10))");
  EXPECT_EQ(DumpExpr("x::bool"), "(CAST x boolean)");
  EXPECT_EQ(DumpExpr("x::nosuchtype"), "ERROR 42704: type \"nosuchtype\" does not exist");
}

TEST(ParserExpressions, TypeNamesAreCanonical) {
  const std::pair<const char*, const char*> cases[] = {
      {"INT", "integer"},
      {"INTEGER", "integer"},
      {"INT4", "integer"},
      {"SMALLINT", "smallint"},
      {"INT2", "smallint"},
      {"BIGINT", "bigint"},
      {"INT8", "bigint"},
      {"DOUBLE PRECISION", "double precision"},
      {"FLOAT", "double precision"},
      {"FLOAT8", "double precision"},
      {"REAL", "real"},
      {"FLOAT4", "real"},
      {"TEXT", "text"},
      {"VARCHAR(20)", "varchar(20)"},
      {"CHARACTER VARYING(3)", "varchar(3)"},
      {"CHAR(2)", "char(2)"},
      {"CHARACTER(4)", "char(4)"},
      {"BOOLEAN", "boolean"},
      {"BOOL", "boolean"},
      {"VARCHAR", "varchar"},
      {"CHAR", "char"},
      {"float(10)", "real"},
      {"float(40)", "double precision"},
  };
  for (const auto& [written, canonical] : cases) {
    EXPECT_EQ(DumpExpr(std::string("CAST(1 AS ") + written + ")"),
              std::string("(CAST 1 ") + canonical + ")")
        << written;
  }
  EXPECT_EQ(DumpExpr("CAST(1 AS integer(3))"),
            "ERROR 42601: type modifier is not allowed for type \"integer\"");
  EXPECT_EQ(DumpExpr("CAST(1 AS varchar(0))"),
            "ERROR 22023: length for type varchar must be at least 1");
  EXPECT_EQ(DumpExpr("CAST(1 AS varchar(99999999999))"),
            "ERROR 54000: length for type varchar cannot exceed 10485760");
}

TEST(ParserExpressions, Case) {
  EXPECT_EQ(DumpExpr("CASE WHEN a < b THEN 1 WHEN a = b THEN 2 ELSE 3 END"),
            "(CASE WHEN (< a b) THEN 1 WHEN (= a b) THEN 2 ELSE 3)");
  EXPECT_EQ(DumpExpr("CASE a WHEN 1 THEN 'one' END"), "(CASE a WHEN 1 THEN 'one')");
  EXPECT_EQ(DumpExpr("case a + 1 when 2 then 3 else 4 end"), "(CASE (+ a 1) WHEN 2 THEN 3 ELSE 4)");
  auto e = ParseExpression("CASE x WHEN 1 THEN 2 ELSE 3 END");
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE((*e)->has_case_operand);
  EXPECT_TRUE((*e)->has_else);
  EXPECT_EQ((*e)->children.size(), 4u);
}

TEST(ParserExpressions, FunctionsAndAggregates) {
  EXPECT_EQ(DumpExpr("abs(a - b)"), "abs( (- a b))");
  EXPECT_EQ(DumpExpr("COUNT(*)"), "count(*)");
  EXPECT_EQ(DumpExpr("count(DISTINCT a)"), "count(DISTINCT a)");
  EXPECT_EQ(DumpExpr("sum(ALL a)"), "sum( a)");
  EXPECT_EQ(DumpExpr("coalesce(a, b, 0)"), "coalesce( a b 0)");
  EXPECT_EQ(DumpExpr("now()"), "now()");
  EXPECT_EQ(DumpExpr("\"MyFunc\"(1)"), "MyFunc( 1)");
  EXPECT_EQ(DumpExpr("avg(c) + 1"), "(+ avg( c) 1)");
}

TEST(ParserExpressions, ColumnRefsAndParams) {
  EXPECT_EQ(DumpExpr("t1.a"), "t1.a");
  EXPECT_EQ(DumpExpr("T1.A"), "t1.a");
  EXPECT_EQ(DumpExpr("\"T1\".\"A b\""), "T1.A b");
  EXPECT_EQ(DumpExpr("$1 + $12"), "(+ $1 $12)");
  EXPECT_EQ(DumpExpr("$0"), "ERROR 42P02: there is no parameter $0");
  // Non-reserved keywords and common words stay usable as column names.
  EXPECT_EQ(DumpExpr("name || text || key || value || date || first || last || set"),
            "(|| (|| (|| (|| (|| (|| (|| name text) key) value) date) first) last) set)");
}

TEST(ParserExpressions, Subqueries) {
  EXPECT_EQ(DumpExpr("(SELECT 1)"), "(SUBQUERY)");
  EXPECT_EQ(DumpExpr("EXISTS (SELECT 1)"), "(EXISTS)");
  EXPECT_EQ(DumpExpr("NOT EXISTS (SELECT 1)"), "(NOTEXISTS)");
  EXPECT_EQ(DumpExpr("((SELECT count(*) FROM t1 AS x WHERE x.b < t1.b)) + 1"), "(+ (SUBQUERY) 1)");
  auto e = ParseExpression("(SELECT max(b) FROM t WHERE a = 1)");
  ASSERT_TRUE(e.ok());
  ASSERT_NE((*e)->subquery, nullptr);
  EXPECT_EQ((*e)->subquery->from[0].name, "t");
  EXPECT_EQ(Dump((*e)->subquery->where.get()), "(= a 1)");
}

TEST(ParserExpressions, Locations) {
  auto e = ParseExpression("a +\n  b * c");
  ASSERT_TRUE(e.ok());
  const ast::Expr& mul = *(*e)->children[1];
  EXPECT_EQ(mul.loc.position, 7u);
  EXPECT_EQ(mul.loc.line, 2u);
  EXPECT_EQ(mul.loc.column, 3u);
  EXPECT_EQ((*e)->loc.position, 1u);  // a node's location is its first token
  // Positions count characters, not bytes.
  auto u = ParseExpression("'ü' || x");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ((*u)->children[1]->loc.position, 8u);
}

TEST(ParserExpressions, StandaloneRejectsTrailingInput) {
  EXPECT_EQ(DumpExpr("1 2"), "ERROR 42601: syntax error at or near \"2\"");
  EXPECT_EQ(DumpExpr(""), "ERROR 42601: syntax error at end of input");
  EXPECT_EQ(DumpExpr("1;"), "ERROR 42601: syntax error at or near \";\"");
}

TEST(ParserExpressions, ComparisonIsNonAssociative) {
  EXPECT_EQ(DumpExpr("a < b < c"), "ERROR 42601: syntax error at or near \"<\"");
}

}  // namespace
}  // namespace meridian::parser::testing
