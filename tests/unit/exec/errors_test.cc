// Every error SQLSTATE the binder and executor raise, with messages and positions.
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

class ErrorsTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE t (a INT, s TEXT, v VARCHAR(3), b BIGINT, "
                  "n INT NOT NULL DEFAULT 0)")
                    .status.ok());
    ASSERT_TRUE(Q("INSERT INTO t VALUES (1, 'x', 'abc', 10, 5)").status.ok());
  }
};

TEST_F(ErrorsTest, UndefinedColumnWithPosition) {
  ErrResult st = Err("SELECT nosuch FROM t", "42703");
  EXPECT_EQ(st.message(), "column \"nosuch\" does not exist");
  EXPECT_EQ(st.position(), 8u);
  st = Err("SELECT a FROM t WHERE t.zz = 1", "42703");
  EXPECT_EQ(st.position(), 23u);
  st = Err("INSERT INTO t (a, zz) VALUES (1, 2)", "42703");
  EXPECT_EQ(st.message(), "column \"zz\" of relation \"t\" does not exist");
  EXPECT_EQ(st.position(), 19u);
  st = Err("UPDATE t SET zz = 1", "42703");
  EXPECT_EQ(st.position(), 14u);
}

TEST_F(ErrorsTest, UndefinedTableWithPosition) {
  ErrResult st = Err("SELECT * FROM nosuch", "42P01");
  EXPECT_EQ(st.message(), "relation \"nosuch\" does not exist");
  EXPECT_EQ(st.position(), 15u);
  EXPECT_EQ(Err("INSERT INTO nosuch VALUES (1)", "42P01").position(), 13u);
  EXPECT_EQ(Err("UPDATE nosuch SET a = 1", "42P01").position(), 8u);
  EXPECT_EQ(Err("DELETE FROM nosuch", "42P01").position(), 13u);
  Err("DROP TABLE nosuch", "42P01");
  Err("SELECT nosuch.a FROM t", "42P01");
}

TEST_F(ErrorsTest, DuplicateTable) {
  ErrResult st = Err("CREATE TABLE t (x INT)", "42P07");
  EXPECT_EQ(st.message(), "relation \"t\" already exists");
  Err("CREATE TABLE u (x INT, x INT)", "42701");
}

TEST_F(ErrorsTest, InvalidTextRepresentation) {
  ErrResult st = Err("INSERT INTO t (a) VALUES ('abc')", "22P02");
  EXPECT_EQ(st.message(), "invalid input syntax for type integer: \"abc\"");
  EXPECT_EQ(st.position(), 27u);
  st = Err("SELECT * FROM t WHERE a = 'x1'", "22P02");
  EXPECT_EQ(st.position(), 27u);
  Err("SELECT 'maybe'::boolean", "22P02");
  Err("SELECT 'x'::double precision", "22P02");
}

TEST_F(ErrorsTest, NumericOutOfRange) {
  EXPECT_EQ(Err("SELECT 2147483647 + 1", "22003").message(), "integer out of range");
  EXPECT_EQ(Err("SELECT a * 2147483647 * 2 FROM t", "22003").message(), "integer out of range");
  EXPECT_EQ(Err("SELECT 9223372036854775807 + 1", "22003").message(), "bigint out of range");
  EXPECT_EQ(Err("SELECT b * 9223372036854775807 FROM t", "22003").message(), "bigint out of range");
  Err("INSERT INTO t (a) VALUES (3000000000)", "22003");
  Err("UPDATE t SET a = b * 1000000000", "22003");
  Err("SELECT -(-2147483647 - 1)", "22003");
  EXPECT_EQ(Rows("SELECT 2147483647 + 1::bigint"), std::vector<std::string>{"2147483648"});
}

TEST_F(ErrorsTest, DivisionByZero) {
  EXPECT_EQ(Err("SELECT 1 / 0", "22012").message(), "division by zero");
  Err("SELECT a % 0 FROM t", "22012");
  Err("SELECT 1.5 / 0", "22012");
  Err("SELECT * FROM t WHERE a / (a - 1) = 1", "22012");
}

TEST_F(ErrorsTest, StringTooLong) {
  ErrResult st = Err("INSERT INTO t (v) VALUES ('abcd')", "22001");
  EXPECT_EQ(st.message(), "value too long for type character varying(3)");
  Err("UPDATE t SET v = v || 'x'", "22001");
  // Explicit casts truncate, trailing spaces are dropped silently, as in PostgreSQL.
  ASSERT_TRUE(Q("INSERT INTO t (v) VALUES ('ab   ')").status.ok());
  EXPECT_EQ(Rows("SELECT 'abcd'::varchar(2)"), std::vector<std::string>{"ab"});
}

TEST_F(ErrorsTest, OperatorDoesNotExist) {
  ErrResult st = Err("SELECT * FROM t WHERE s = a", "42883");
  EXPECT_EQ(st.message(), "operator does not exist: text = integer");
  EXPECT_NE(st.position(), 0u);
  Err("SELECT s + 1 FROM t", "42883");
  Err("SELECT a || a FROM t", "42883");
  Err("SELECT nosuchfn(1)", "42883");
  Err("SELECT a LIKE 'x' FROM t", "42883");
}

TEST_F(ErrorsTest, DatatypeMismatch) {
  ErrResult st = Err("SELECT * FROM t WHERE a", "42804");
  EXPECT_EQ(st.message(), "argument of WHERE must be type boolean, not type integer");
  EXPECT_EQ(st.position(), 23u);
  Err("SELECT * FROM t WHERE a AND true", "42804");
  Err("SELECT CASE WHEN true THEN 1 ELSE 'x'::text END", "42804");
  st = Err("INSERT INTO t (a) VALUES (true)", "42804");
  EXPECT_EQ(st.message(), "column \"a\" is of type integer but expression is of type boolean");
}

TEST_F(ErrorsTest, NotNullViolation) {
  ErrResult st = Err("INSERT INTO t (a, n) VALUES (1, NULL)", "23502");
  EXPECT_EQ(st.message(),
            "null value in column \"n\" of relation \"t\" violates not-null constraint");
  Err("UPDATE t SET n = NULL", "23502");
}

TEST_F(ErrorsTest, TooManyValues) {
  ErrResult st = Err("INSERT INTO t (a, s) VALUES (1, 'x', 3)", "42601");
  EXPECT_EQ(st.message(), "INSERT has more expressions than target columns");
  EXPECT_EQ(st.position(), 38u);
  Err("INSERT INTO t VALUES (1, 'x', 'y', 1, 1, 6)", "42601");
  Err("INSERT INTO t (a, s) VALUES (1)", "42601");
}

TEST_F(ErrorsTest, SyntaxErrorFromParser) {
  ErrResult st = Err("SELEC 1", "42601");
  EXPECT_EQ(st.position(), 1u);
}

TEST_F(ErrorsTest, PrimaryKeyViolation) {
  ASSERT_TRUE(Q("CREATE TABLE p (id INT PRIMARY KEY, x TEXT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO p VALUES (1, 'a'), (2, 'b')").status.ok());
  ErrResult st = Err("INSERT INTO p VALUES (1, 'c')", "23505");
  EXPECT_EQ(st.message(), "duplicate key value violates unique constraint \"p_pkey\"");
  EXPECT_EQ(st.error().detail, "Key (id)=(1) already exists.");
  Err("INSERT INTO p VALUES (3, 'c'), (3, 'd')", "23505");
  Err("UPDATE p SET id = 2 WHERE id = 1", "23505");
  Err("INSERT INTO p VALUES (NULL, 'n')", "23502");
  // Shifting every key by one is fine: the statement frees the keys it reuses.
  ASSERT_TRUE(Q("UPDATE p SET id = id + 1").status.ok());
  EXPECT_EQ(Rows("SELECT id, x FROM p ORDER BY id"), (std::vector<std::string>{"2|a", "3|b"}));
  // A deleted key may be inserted again.
  ASSERT_TRUE(Q("DELETE FROM p WHERE id = 2").status.ok());
  ASSERT_TRUE(Q("INSERT INTO p VALUES (2, 'again')").status.ok());

  ASSERT_TRUE(Q("CREATE TABLE c (a INT, b TEXT, x INT, PRIMARY KEY (a, b))").status.ok());
  ASSERT_TRUE(Q("INSERT INTO c VALUES (1, 'x', 0), (1, 'y', 0)").status.ok());
  st = Err("INSERT INTO c VALUES (1, 'x', 9)", "23505");
  EXPECT_EQ(st.message(), "duplicate key value violates unique constraint \"c_pkey\"");
  EXPECT_EQ(st.error().detail, "Key (a, b)=(1, x) already exists.");
}

TEST_F(ErrorsTest, FailedMultiRowInsertLeavesNothing) {
  ASSERT_TRUE(Q("CREATE TABLE m (a INT NOT NULL, b INT)").status.ok());
  Err("INSERT INTO m VALUES (1, 1), (2, 2), (NULL, 3), (4, 4)", "23502");
  EXPECT_EQ(Rows("SELECT count(*) FROM m"), std::vector<std::string>{"0"});
  Err("INSERT INTO m VALUES (1, 1), (2, 2 / 0)", "22012");
  EXPECT_EQ(Rows("SELECT count(*) FROM m"), std::vector<std::string>{"0"});
  ASSERT_TRUE(Q("CREATE TABLE pk (a INT PRIMARY KEY)").status.ok());
  Err("INSERT INTO pk VALUES (1), (2), (1)", "23505");
  EXPECT_EQ(Rows("SELECT count(*) FROM pk"), std::vector<std::string>{"0"});
  ASSERT_TRUE(Q("INSERT INTO pk VALUES (1)").status.ok());
  // A failing UPDATE changes nothing either.
  ASSERT_TRUE(Q("INSERT INTO m VALUES (1, 1), (2, 0)").status.ok());
  Err("UPDATE m SET b = 10 / b", "22012");
  EXPECT_EQ(Rows("SELECT a, b FROM m ORDER BY a"), (std::vector<std::string>{"1|1", "2|0"}));
}

TEST_F(ErrorsTest, UnsupportedFeatures) {
  // A parameter without a value (a request without parameters): PostgreSQL's 42P02.
  Status st = Q("SELECT a FROM t WHERE a = $1").status;
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.sqlstate(), "42P02") << st.ToString();
  // TIMETZ: the parser rejects it (42704) until the type exists; positions point at it.
  EXPECT_NE(Q("CREATE TABLE d (x TIMETZ)").status.position(), 0u);
}

TEST_F(ErrorsTest, GroupingErrors) {
  ErrResult st = Err("SELECT a, count(*) FROM t", "42803");
  EXPECT_EQ(st.message(),
            "column \"t.a\" must appear in the GROUP BY clause or be used in an aggregate "
            "function");
  EXPECT_EQ(st.position(), 8u);
  Err("SELECT * FROM t WHERE count(*) > 1", "42803");
  Err("SELECT sum(count(*)) FROM t", "42803");
}

TEST_F(ErrorsTest, SubqueryErrors) {
  Err("SELECT (SELECT a, s FROM t)", "42601");
  ASSERT_TRUE(Q("INSERT INTO t (a) VALUES (2)").status.ok());
  Err("SELECT (SELECT a FROM t)", "21000");
}

TEST_F(ErrorsTest, OrderByErrors) {
  EXPECT_EQ(Err("SELECT a FROM t ORDER BY 2", "42P10").position(), 26u);
  Err("SELECT DISTINCT a FROM t ORDER BY s", "42P10");
  Err("SELECT a FROM t LIMIT -1", "2201W");
  Err("SELECT a FROM t LIMIT a", "42P10");
}

}  // namespace
}  // namespace meridian::testing
