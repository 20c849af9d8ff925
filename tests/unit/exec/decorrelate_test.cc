// Decorrelated [NOT] EXISTS (planner/decorrelate.cc, issue 16): correlated by equalities, the
// subquery is answered from a hash set after its per-row plan has run as often as building the
// set costs. EXPLAIN says so; the rows must equal those of the same test written as a scalar
// count subquery (never decorrelated), on random data with NULLs on both sides, duplicates,
// keys of two columns and of mixed integer widths, text keys, an inner join and LIMIT 1 inside,
// EXISTS in the select list and under OR, and an empty inner side. Correlated scalar aggregate
// and [NOT] IN subqueries get the same hashed form: their rows must equal those of the same
// query with OFFSET 0 in the subquery, which keeps the per-row plan only.
#include <random>
#include <string>
#include <vector>

#include "sql_test_util.h"

namespace meridian::testing {
namespace {

class DecorrelateTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE a (id INT PRIMARY KEY, x INT, y BIGINT, s TEXT)").status.ok());
    ASSERT_TRUE(Q("CREATE TABLE b (id INT PRIMARY KEY, x BIGINT, y INT, s VARCHAR(10), w INT)")
                    .status.ok());
    ASSERT_TRUE(Q("CREATE TABLE c (id INT PRIMARY KEY, bx BIGINT)").status.ok());
    ASSERT_TRUE(Q("CREATE TABLE empty (x INT)").status.ok());
    std::mt19937 rng(20261127);
    auto maybe_null = [&](int v) {
      return rng() % 8 == 0 ? std::string("NULL") : std::to_string(v);
    };
    std::string rows;
    for (int i = 1; i <= 3000; ++i) {
      rows += std::string(rows.empty() ? "" : ",") + "(" + std::to_string(i) + "," +
              maybe_null(static_cast<int>(rng() % 400)) + "," +
              maybe_null(static_cast<int>(rng() % 5)) + ",'k" + std::to_string(rng() % 300) + "')";
    }
    ASSERT_TRUE(Q("INSERT INTO a VALUES " + rows).status.ok());
    rows.clear();
    for (int i = 1; i <= 2000; ++i) {
      rows += std::string(rows.empty() ? "" : ",") + "(" + std::to_string(i) + "," +
              maybe_null(static_cast<int>(rng() % 500)) + "," +
              maybe_null(static_cast<int>(rng() % 5)) + ",'k" + std::to_string(rng() % 400) + "'," +
              std::to_string(rng() % 4) + ")";
    }
    ASSERT_TRUE(Q("INSERT INTO b VALUES " + rows).status.ok());
    ASSERT_TRUE(Q("INSERT INTO c SELECT g, g * 3 FROM generate_series(1, 300) g").status.ok());
    ASSERT_TRUE(Q("ANALYZE").status.ok());
  }
  std::string Plan(const std::string& sql) {
    std::string out;
    for (const std::string& line : Rows("EXPLAIN " + sql)) out += line + "\n";
    return out;
  }
  // sql and the same with OFFSET 0 after each subquery's WHERE (per-row only; {} marks those
  // places) give the same rows. Each subquery expression of sql, marked [[...]], shows its
  // hashed form in the plan of a filter over a (select-list expressions are not printed); its
  // OFFSET 0 form does not.
  void ExpectSameAsPerRow(const std::string& sql) {
    auto with = [](const std::string& text, const std::string& offset) {
      std::string out;
      for (char c : text) {
        if (c == '{') {
          out += offset;
        } else if (c != '}' && c != '[' && c != ']') {
          out += c;
        }
      }
      return out;
    };
    size_t marked = 0;
    for (size_t from = 0; (from = sql.find("[[", from)) != std::string::npos; ++marked) {
      const size_t end = sql.find("]]", from);
      ASSERT_NE(end, std::string::npos) << sql;
      const std::string expr = sql.substr(from + 2, end - from - 2);
      const std::string hashed = Plan("SELECT 1 FROM a WHERE (" + with(expr, "") + ") IS NULL");
      EXPECT_NE(hashed.find(", hashed after "), std::string::npos) << hashed;
      const std::string per_row =
          Plan("SELECT 1 FROM a WHERE (" + with(expr, " OFFSET 0") + ") IS NULL");
      EXPECT_EQ(per_row.find("hashed"), std::string::npos) << per_row;
      from = end;
    }
    EXPECT_GT(marked, 0u) << sql;
    const std::vector<std::string> want = Rows(with(sql, " OFFSET 0"));
    EXPECT_FALSE(want.empty()) << sql;
    EXPECT_EQ(Rows(with(sql, "")), want) << sql;
  }
  // sql with EXISTS (sub) and with (SELECT count(*) sub') > 0 must give the same rows.
  void ExpectSame(const std::string& exists_sql, const std::string& count_sql) {
    const std::vector<std::string> want = Rows(count_sql);
    EXPECT_FALSE(want.empty()) << count_sql;
    EXPECT_EQ(Rows(exists_sql), want) << exists_sql;
  }
};

TEST_F(DecorrelateTest, ExplainAnalyzeCountsEachSubPlanRun) {
  // The select-list subquery runs once per row of a; its plan prints under the top node with
  // the number of runs as loops, and the uncorrelated one as an InitPlan run once.
  const int64_t rows =
      std::stoll(Rows("SELECT count(*) FROM a WHERE a.x > (SELECT min(x) - 1 FROM b)").at(0));
  std::string p;
  for (const std::string& line :
       Rows("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT id, (SELECT count(*) FROM b WHERE "
            "b.x = a.x AND b.id < a.id) FROM a WHERE a.x > (SELECT min(x) - 1 FROM b)")) {
    p += line + "\n";
  }
  EXPECT_NE(p.find("Filter: (a.x > (InitPlan 1))\n"), std::string::npos) << p;
  EXPECT_NE(p.find("  InitPlan 1\n    ->  Aggregate (actual rows=1 loops=1)"), std::string::npos)
      << p;
  EXPECT_NE(
      p.find("  SubPlan 2\n    ->  Aggregate (actual rows=1 loops=" + std::to_string(rows) + ")"),
      std::string::npos)
      << p;
}

TEST_F(DecorrelateTest, ExplainShowsTheHashedForm) {
  const std::string p =
      Plan("SELECT count(*) FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.x = a.x AND b.w = 1)");
  EXPECT_NE(p.find("NOT EXISTS(SubPlan 1, hashed after"), std::string::npos) << p;
  // The EXISTS is joined with b grouped by x instead, costing less than the hashed SubPlan
  // (docs/decorrelation.md "Semi joins").
  const std::string e =
      Plan("SELECT count(*) FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.x = a.x AND b.w = 1)");
  EXPECT_NE(e.find("Hash Join"), std::string::npos) << e;
  EXPECT_NE(e.find("Group Key: b.x"), std::string::npos) << e;
  // A correlation that is not an equality keeps the per-row plan only.
  const std::string q =
      Plan("SELECT count(*) FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.x < a.x)");
  EXPECT_EQ(q.find("hashed"), std::string::npos) << q;
  // Aggregates inside are not decorrelated either.
  const std::string r =
      Plan("SELECT count(*) FROM a WHERE EXISTS (SELECT max(b.y) FROM b WHERE b.x = a.x)");
  EXPECT_EQ(r.find("hashed"), std::string::npos) << r;
}

TEST_F(DecorrelateTest, ExistsAndNotExistsMatchCounts) {
  ExpectSame("SELECT id FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.x = a.x) ORDER BY id",
             "SELECT id FROM a WHERE (SELECT count(*) FROM b WHERE b.x = a.x) > 0 ORDER BY id");
  ExpectSame(
      "SELECT id FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.x = a.x AND b.w = 2) "
      "ORDER BY id",
      "SELECT id FROM a WHERE (SELECT count(*) FROM b WHERE b.x = a.x AND b.w = 2) = 0 "
      "ORDER BY id");
  // Two keys, the outer side an expression, mixed integer widths both ways.
  ExpectSame(
      "SELECT id FROM a WHERE EXISTS (SELECT * FROM b WHERE a.y = b.y AND b.x = a.x + 1) "
      "ORDER BY id",
      "SELECT id FROM a WHERE (SELECT count(*) FROM b WHERE a.y = b.y AND b.x = a.x + 1) > 0 "
      "ORDER BY id");
  // Text and varchar keys; LIMIT 1 inside.
  ExpectSame("SELECT id FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.s = a.s LIMIT 1) ORDER BY id",
             "SELECT id FROM a WHERE (SELECT count(*) FROM b WHERE b.s = a.s) > 0 ORDER BY id");
  // An inner join inside the subquery.
  ExpectSame(
      "SELECT id FROM a WHERE EXISTS (SELECT 1 FROM b JOIN c ON c.bx = b.x WHERE "
      "b.y = a.y AND c.id = a.x) ORDER BY id",
      "SELECT id FROM a WHERE (SELECT count(*) FROM b JOIN c ON c.bx = b.x WHERE "
      "b.y = a.y AND c.id = a.x) > 0 ORDER BY id");
  // In the select list (true/false, never NULL) and under OR.
  ExpectSame(
      "SELECT id, EXISTS (SELECT 1 FROM b WHERE b.x = a.x), NOT EXISTS (SELECT 1 FROM b "
      "WHERE b.y = a.y) FROM a ORDER BY id",
      "SELECT id, (SELECT count(*) FROM b WHERE b.x = a.x) > 0, (SELECT count(*) FROM b "
      "WHERE b.y = a.y) = 0 FROM a ORDER BY id");
  ExpectSame(
      "SELECT id FROM a WHERE a.id < 10 OR EXISTS (SELECT 1 FROM b WHERE b.x = a.x AND "
      "b.w = 3) ORDER BY id",
      "SELECT id FROM a WHERE a.id < 10 OR (SELECT count(*) FROM b WHERE b.x = a.x AND "
      "b.w = 3) > 0 ORDER BY id");
}

TEST_F(DecorrelateTest, EmptyInnerSideAndRepeatedRuns) {
  EXPECT_EQ(Rows("SELECT count(*) FROM a WHERE EXISTS (SELECT 1 FROM empty e WHERE e.x = a.x)"),
            (std::vector<std::string>{"0"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM a WHERE NOT EXISTS (SELECT 1 FROM empty e WHERE e.x = a.x)"),
            (std::vector<std::string>{"3000"}));
  // A prepared statement runs the hashed form again after the inner table changed.
  ASSERT_TRUE(Q("PREPARE p AS SELECT count(*) FROM a WHERE EXISTS (SELECT 1 FROM c WHERE c.id = "
                "a.x)")
                  .status.ok());
  const std::vector<std::string> before = Rows("EXECUTE p");
  ASSERT_TRUE(Q("DELETE FROM c WHERE id > 100").status.ok());
  EXPECT_EQ(Rows("EXECUTE p"),
            Rows("SELECT count(*) FROM a WHERE (SELECT count(*) FROM c WHERE c.id = a.x) > 0"));
  EXPECT_NE(Rows("EXECUTE p"), before);
}

TEST_F(DecorrelateTest, PreparedScalarAndInBuildAgainPerRun) {
  // Each EXECUTE builds the hashed tables anew: after the inner table changed, the answers are
  // the per-row plan's over the new rows.
  ASSERT_TRUE(Q("PREPARE ps AS SELECT count(*), sum((SELECT sum(c.bx) FROM c WHERE c.id = a.x)) "
                "FROM a WHERE a.id > $1")
                  .status.ok());
  ASSERT_TRUE(Q("PREPARE pi AS SELECT count(*) FROM a WHERE a.y NOT IN (SELECT c.bx % 5 FROM c "
                "WHERE c.id = a.x)")
                  .status.ok());
  const std::string per_row_s =
      "SELECT count(*), sum((SELECT sum(c.bx) FROM c WHERE c.id = a.x OFFSET 0)) FROM a WHERE "
      "a.id > 0";
  const std::string per_row_i =
      "SELECT count(*) FROM a WHERE a.y NOT IN (SELECT c.bx % 5 FROM c WHERE c.id = a.x OFFSET 0)";
  for (const char* sql : {"SELECT 1 FROM a WHERE (SELECT sum(c.bx) FROM c WHERE c.id = a.x) > 0",
                          "SELECT 1 FROM a WHERE a.y NOT IN (SELECT c.bx % 5 FROM c WHERE c.id = "
                          "a.x)"}) {
    // Hashed well before the 3,000 rows of a are done.
    const std::string p = Plan(sql);
    const size_t at = p.find(", hashed after ");
    ASSERT_NE(at, std::string::npos) << p;
    EXPECT_LT(std::stoll(p.substr(at + 15)), 1000) << p;
  }
  const std::vector<std::string> before_s = Rows("EXECUTE ps(0)");
  const std::vector<std::string> before_i = Rows("EXECUTE pi");
  EXPECT_EQ(before_s, Rows(per_row_s));
  EXPECT_EQ(before_i, Rows(per_row_i));
  ASSERT_TRUE(Q("DELETE FROM c WHERE id % 3 = 0").status.ok());
  ASSERT_TRUE(Q("UPDATE c SET bx = bx + 1 WHERE id % 3 = 1").status.ok());
  EXPECT_EQ(Rows("EXECUTE ps(0)"), Rows(per_row_s));
  EXPECT_EQ(Rows("EXECUTE pi"), Rows(per_row_i));
  EXPECT_NE(Rows("EXECUTE ps(0)"), before_s);
  EXPECT_NE(Rows("EXECUTE pi"), before_i);
}

TEST_F(DecorrelateTest, ScalarAggregatesMatchPerRow) {
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT sum(b.y) FROM b WHERE b.x = a.x{})]] FROM a ORDER BY id");
  // count gives 0 for a key without rows (a NULL key included), the others NULL.
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT count(*) FROM b WHERE b.x = a.x AND b.w = 1{})]], a.x FROM a ORDER BY "
      "id");
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT count(b.y) FROM b WHERE a.x = b.x{})]] FROM a ORDER BY id");
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT max(b.y) FROM b WHERE b.x = a.x AND b.y < 3{})]] FROM a ORDER BY id");
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT min(b.s) FROM b WHERE b.y = a.y AND b.w = 2{})]] FROM a ORDER BY id");
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT avg(b.x) FROM b WHERE b.y = a.y{})]] FROM a ORDER BY id");
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT bool_and(b.w > 0) FROM b WHERE b.x = a.x{})]], [[(SELECT bool_or(b.w = "
      "3) "
      "FROM b WHERE b.x = a.x{})]] FROM a ORDER BY id");
  // Two keys of mixed integer widths, the outer side an expression; an expression over
  // several aggregates (the value over no rows: coalesce(NULL, -1) * 2 + 0).
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT coalesce(sum(b.id), -1) * 2 + count(*) FROM b WHERE a.y = b.y AND "
      "b.x = a.x + 1{})]] FROM a ORDER BY id");
  // Text keys; an ordered aggregate with FILTER; DISTINCT inside an aggregate.
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT string_agg(b.id::text, ',' ORDER BY b.id) FILTER (WHERE b.w <> 1) FROM "
      "b WHERE b.s = a.s{})]] FROM a ORDER BY id");
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT count(DISTINCT b.w) FROM b WHERE b.y = a.y{})]] FROM a ORDER BY id");
  // In WHERE, compared with an outer column (the TPC-C consistency check's shape).
  ExpectSameAsPerRow(
      "SELECT id FROM a WHERE a.id % 7 <> [[(SELECT sum(b.w) FROM b WHERE b.x = a.x{})]] ORDER BY "
      "id");
  ExpectSameAsPerRow(
      "SELECT count(*) FROM a WHERE a.x < [[(SELECT max(b.x) FROM b WHERE b.y = a.y AND "
      "b.s = a.s{})]]");
  // An inner join inside; an empty inner side.
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT sum(c.bx) FROM b JOIN c ON c.bx = b.x WHERE b.y = a.y AND c.id = "
      "a.x{})]] FROM a ORDER BY id");
  ExpectSameAsPerRow(
      "SELECT id, [[(SELECT count(*) FROM empty e WHERE e.x = a.x{})]], [[(SELECT max(e.x) FROM "
      "empty "
      "e WHERE e.x = a.x{})]] FROM a ORDER BY id");
}

TEST_F(DecorrelateTest, ScalarShapesThatKeepThePerRowPlan) {
  // GROUP BY, HAVING, LIMIT, another outer reference, a non-aggregate or a volatile call.
  for (const char* sub : {"SELECT sum(b.y) FROM b WHERE b.x = a.x GROUP BY b.w",
                          "SELECT sum(b.y) FROM b WHERE b.x = "
                          "a.x HAVING count(*) > 1",
                          "SELECT sum(b.y) FROM b WHERE b.x = a.x LIMIT 1",
                          "SELECT sum(b.y) + a.id FROM b WHERE b.x = a.x",
                          "SELECT sum(b.y + a.id) FROM b WHERE "
                          "b.x = a.x",
                          "SELECT b.y FROM b WHERE b.x = a.x AND b.id = 1",
                          "SELECT sum(b.y) FROM b WHERE b.x = a.x AND random() < 2",
                          "SELECT sum(b.y) FROM b WHERE "
                          "b.x < a.x"}) {
    const std::string p = Plan(std::string("SELECT id FROM a WHERE (") + sub + ") IS NULL");
    EXPECT_EQ(p.find("hashed"), std::string::npos) << p;
  }
  // The value over no rows is computed when a key has no group, with its errors.
  EXPECT_FALSE(Q("SELECT id, (SELECT 1 / count(*) FROM b WHERE b.x = a.x) FROM a").status.ok());
}

TEST_F(DecorrelateTest, InAndNotInMatchPerRow) {
  // Values, not only filters: NULL, true and false must all come out as the per-row plan's.
  ExpectSameAsPerRow(
      "SELECT id, [[a.x IN (SELECT b.y FROM b WHERE b.x = a.y{})]], [[a.x NOT IN (SELECT b.y "
      "FROM b WHERE b.x = a.y{})]] FROM a ORDER BY id");
  // Big groups (four w values), each with NULL y among them.
  ExpectSameAsPerRow(
      "SELECT id, [[a.y::int NOT IN (SELECT b.y FROM b WHERE b.w = a.x % 5{})]] FROM a ORDER BY "
      "id");
  ExpectSameAsPerRow(
      "SELECT id FROM a WHERE [[a.x NOT IN (SELECT b.x FROM b WHERE b.y = a.y AND b.w = 1{})]] "
      "ORDER BY id");
  ExpectSameAsPerRow(
      "SELECT id FROM a WHERE [[a.x IN (SELECT b.x FROM b WHERE b.y = a.y AND b.x IS NOT NULL{})]] "
      "ORDER BY id");
  // Text values and keys, DISTINCT and ORDER BY inside, two keys.
  ExpectSameAsPerRow(
      "SELECT id, [[a.s NOT IN (SELECT DISTINCT b.s FROM b WHERE b.y = a.y AND b.w = a.x % 4 "
      "ORDER BY 1{})]] FROM a ORDER BY id");
  // An empty inner side: IN false, NOT IN true, even for a NULL x.
  ExpectSameAsPerRow(
      "SELECT id, [[a.x IN (SELECT e.x FROM empty e WHERE e.x = a.y{})]], [[a.x NOT IN (SELECT "
      "e.x FROM empty e WHERE e.x = a.y{})]] FROM a ORDER BY id");
  // x and y of types whose hash keys differ from their = (int and numeric) keep the per-row
  // plan; so does a LIMIT.
  for (const char* sql :
       {"SELECT id FROM a WHERE a.x IN (SELECT b.y::numeric FROM b WHERE b.x = a.x)",
        "SELECT id FROM a WHERE a.x IN (SELECT b.y FROM b WHERE b.x = a.x LIMIT 2)",
        "SELECT id FROM a WHERE a.x > ANY (SELECT b.y FROM b WHERE b.x = a.x)"}) {
    const std::string p = Plan(sql);
    EXPECT_EQ(p.find("hashed"), std::string::npos) << p;
  }
}

}  // namespace
}  // namespace meridian::testing
