// Statement parameters ($1, $2, ...) through the public API: type inference by Describe
// (PostgreSQL's rules), values converted with the input rules (22P02, 22003), NULLs, 42P02 for
// a missing value, one parse started many times (prepared), and index access paths with a
// parameter as the key (EXPLAIN shows the primary-key index and `$1`).
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class ParamsTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10), big BIGINT, "
                  "score DOUBLE PRECISION, ok BOOLEAN)")
                    .status.ok());
    ASSERT_TRUE(Q("INSERT INTO t VALUES (1, 'one', 10, 1.5, true), (2, 'two', 20, 2.5, false), "
                  "(3, 'thr''ee', NULL, NULL, NULL)")
                    .status.ok());
  }

  Result<StatementDescription> Describe(const std::string& sql, std::vector<Type> declared = {}) {
    auto request = session_->Parse(sql);
    if (!request.ok()) return request.status();
    return (*request)->Describe(0, declared);
  }
  std::vector<Type> ParamTypes(const std::string& sql, std::vector<Type> declared = {}) {
    auto d = Describe(sql, std::move(declared));
    EXPECT_TRUE(d.ok()) << sql << ": " << d.status().ToString();
    return d.ok() ? d->param_types : std::vector<Type>{};
  }

  // Runs the one statement of sql with params; rows as "a|b" strings (NULL as "NULL").
  SqlResult Run(const std::string& sql, std::vector<Value> values, std::vector<Type> types = {}) {
    SqlResult result;
    auto request = session_->Parse(sql);
    if (!request.ok()) {
      result.status = request.status();
      return result;
    }
    return RunRequest(**request, std::move(values), std::move(types));
  }
  SqlResult RunRequest(Request& request, std::vector<Value> values, std::vector<Type> types = {}) {
    SqlResult result;
    ExecControl ctl;
    auto cursor = request.Start(0, ctl, StatementParams{std::move(values), std::move(types)});
    if (!cursor.ok()) {
      result.status = cursor.status();
      return result;
    }
    result.columns = (*cursor)->columns();
    std::vector<Row> rows;
    while (true) {
      auto more = (*cursor)->Fetch(100, 1 << 20, ctl, &rows);
      if (!more.ok()) {
        result.status = more.status();
        return result;
      }
      if (!*more) break;
    }
    for (const Row& row : rows) {
      std::string line;
      for (size_t c = 0; c < row.size(); ++c) {
        line += (c ? "|" : "") + (row[c].IsNull() ? std::string("NULL") : row[c].ToString());
      }
      result.rows.push_back(line);
    }
    result.tag = (*cursor)->CommandTag();
    return result;
  }
  Strings Ok(const std::string& sql, std::vector<Value> values, std::vector<Type> types = {}) {
    SqlResult r = Run(sql, std::move(values), std::move(types));
    EXPECT_TRUE(r.status.ok()) << sql << ": " << r.status.ToString();
    return r.rows;
  }
  Status Fails(const std::string& sql, std::vector<Value> values, std::vector<Type> types = {}) {
    SqlResult r = Run(sql, std::move(values), std::move(types));
    EXPECT_FALSE(r.status.ok()) << sql;
    return r.status;
  }
};

TEST_F(ParamsTest, DescribeInfersTypesFromContext) {
  using V = std::vector<Type>;
  EXPECT_EQ(ParamTypes("SELECT * FROM t WHERE id = $1 AND name = $2"),
            (V{Type::Integer(), Type::Text()}));
  EXPECT_EQ(ParamTypes("SELECT $1 + 1"), V{Type::Integer()});
  EXPECT_EQ(ParamTypes("SELECT big FROM t WHERE big > $1"), V{Type::BigInt()});
  EXPECT_EQ(ParamTypes("SELECT big FROM t WHERE big > $1 * 2"), V{Type::Integer()});
  EXPECT_EQ(
      ParamTypes("INSERT INTO t VALUES ($1, $2, $3, $4, $5)"),
      (V{Type::Integer(), Type::Varchar(-1), Type::BigInt(), Type::Double(), Type::Boolean()}));
  EXPECT_EQ(ParamTypes("UPDATE t SET score = $2 WHERE id = $1"),
            (V{Type::Integer(), Type::Double()}));
  EXPECT_EQ(ParamTypes("SELECT * FROM t LIMIT $1 OFFSET $2"), (V{Type::BigInt(), Type::BigInt()}));
  EXPECT_EQ(ParamTypes("SELECT $1"), V{Type::Text()});  // unknown becomes text
  EXPECT_EQ(ParamTypes("SELECT $1::bigint, $2 IS NULL"), (V{Type::BigInt(), Type::Text()}));
  EXPECT_EQ(ParamTypes("SELECT * FROM t WHERE id IN ($1, $2) AND ok = $3"),
            (V{Type::Integer(), Type::Integer(), Type::Boolean()}));
  EXPECT_EQ(ParamTypes("SELECT * FROM t WHERE name LIKE $1"), V{Type::Text()});
  // Gaps are parameters too (text), as in PostgreSQL.
  EXPECT_EQ(ParamTypes("SELECT $2 + 1"), (V{Type::Text(), Type::Integer()}));
  // Declared types win over the context.
  EXPECT_EQ(ParamTypes("SELECT $1", {Type::BigInt()}), V{Type::BigInt()});
  EXPECT_EQ(ParamTypes("SELECT * FROM t WHERE id = $1", {Type::BigInt()}), V{Type::BigInt()});
  // Result columns come with the description; DML and DDL have none.
  auto d = Describe("SELECT id, name AS n FROM t WHERE id = $1");
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->columns.size(), 2u);
  EXPECT_EQ(d->columns[1].name, "n");
  EXPECT_EQ(d->columns[1].type, Type::Varchar(10));
  d = Describe("DELETE FROM t WHERE id = $1");
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->columns.empty());
  EXPECT_EQ(d->param_types, V{Type::Integer()});
  d = Describe("CREATE TABLE u (a INT)");
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->columns.empty() && d->param_types.empty());
  d = Describe("EXPLAIN SELECT * FROM t WHERE id = $1");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->param_types, V{Type::Integer()});
  ASSERT_EQ(d->columns.size(), 1u);
  EXPECT_EQ(d->columns[0].name, "QUERY PLAN");
  // Errors of binding still surface.
  EXPECT_EQ(Describe("SELECT * FROM nope WHERE a = $1").status().sqlstate(), "42P01");
  EXPECT_EQ(Describe("SELECT $1 + $2").status().sqlstate(), "42883");
}

TEST_F(ParamsTest, ValuesAreConvertedWithInputRules) {
  EXPECT_EQ(Ok("SELECT name FROM t WHERE id = $1", {Value::Int(2)}), Strings{"two"});
  EXPECT_EQ(Ok("SELECT name FROM t WHERE id = $1", {Value::String(" 2 ")}), Strings{"two"});
  EXPECT_EQ(Ok("SELECT name FROM t WHERE name = $1", {Value::String("thr'ee")}), Strings{"thr'ee"});
  EXPECT_EQ(Ok("SELECT id FROM t WHERE ok = $1", {Value::String("yes")}), Strings{"1"});
  EXPECT_EQ(Ok("SELECT id FROM t WHERE score > $1 ORDER BY id", {Value::String("2")}),
            Strings{"2"});
  EXPECT_EQ(Ok("SELECT $1 + 1, $2 || 'x', $3", {Value::String("41"), Value::Int(7), Value::Null()}),
            Strings{"42|7x|NULL"});
  EXPECT_EQ(Ok("SELECT $1", {Value::Int(5)}, {Type::BigInt()}), Strings{"5"});
  EXPECT_EQ(Ok("SELECT id FROM t WHERE big IS NULL AND $1 IS NULL", {Value::Null()}), Strings{"3"});

  Status st = Fails("SELECT * FROM t WHERE id = $1", {Value::String("abc")});
  EXPECT_EQ(st.sqlstate(), "22P02");
  EXPECT_EQ(st.message(), "invalid input syntax for type integer: \"abc\"");
  EXPECT_EQ(Fails("SELECT * FROM t WHERE id = $1", {Value::String("99999999999")}).sqlstate(),
            "22003");
  EXPECT_EQ(Fails("SELECT * FROM t WHERE id = $1", {Value::Int(int64_t{1} << 40)}).sqlstate(),
            "22003");
  EXPECT_EQ(Fails("SELECT * FROM t WHERE ok = $1", {Value::String("maybe")}).sqlstate(), "22P02");
  EXPECT_EQ(Fails("SELECT * FROM t WHERE score = $1", {Value::String("1e999")}).sqlstate(),
            "22003");
}

TEST_F(ParamsTest, MissingValuesAre42P02) {
  Status st = Fails("SELECT * FROM t WHERE id = $1 AND name = $2", {Value::Int(1)});
  EXPECT_EQ(st.sqlstate(), "42P02");
  EXPECT_EQ(st.message(), "there is no parameter $2");
  EXPECT_EQ(st.position(), 42u);
  // A request without parameters (simple query) has none at all.
  ErrResult e = Err("SELECT $1", "42P02");
  EXPECT_EQ(e.message(), "there is no parameter $1");
  // A column DEFAULT can never use one.
  Err("CREATE TABLE d (a INT DEFAULT $1)", "42P02");
}

TEST_F(ParamsTest, DmlAndLimitTakeParameters) {
  EXPECT_EQ(Run("INSERT INTO t VALUES ($1, $2, $3, $4, $5)",
                {Value::Int(4), Value::String("it's"), Value::String("9000000000"),
                 Value::Double(0.25), Value::Bool(true)})
                .tag,
            "INSERT 0 1");
  EXPECT_EQ(Rows("SELECT * FROM t WHERE id = 4"), Strings{"4|it's|9000000000|0.25|t"});
  // varchar(10) is checked where the value is stored.
  EXPECT_EQ(Fails("INSERT INTO t (id, name) VALUES ($1, $2)",
                  {Value::Int(5), Value::String("much too long")})
                .sqlstate(),
            "22001");
  EXPECT_EQ(Run("UPDATE t SET score = $2 WHERE id = $1", {Value::Int(4), Value::String("8")}).tag,
            "UPDATE 1");
  EXPECT_EQ(Rows("SELECT score FROM t WHERE id = 4"), Strings{"8"});
  EXPECT_EQ(Ok("SELECT id FROM t ORDER BY id LIMIT $1 OFFSET $2", {Value::Int(2), Value::Int(1)}),
            (Strings{"2", "3"}));
  EXPECT_EQ(
      Ok("SELECT id FROM t WHERE id IN ($1, $2) ORDER BY id", {Value::String("3"), Value::Int(1)}),
      (Strings{"1", "3"}));
  EXPECT_EQ(
      Ok("SELECT count(*) FROM t WHERE id IN (SELECT id FROM t WHERE id > $1)", {Value::Int(1)}),
      Strings{"3"});
  EXPECT_EQ(Run("DELETE FROM t WHERE id = $1", {Value::Int(4)}).tag, "DELETE 1");
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), Strings{"3"});
}

TEST_F(ParamsTest, OneParseRunsWithManyValues) {
  auto request = session_->Parse("SELECT name FROM t WHERE id = $1");
  ASSERT_TRUE(request.ok());
  for (int i = 1; i <= 3; ++i) {
    SqlResult r = RunRequest(**request, {Value::Int(i)}, {Type::Integer()});
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    ASSERT_EQ(r.rows.size(), 1u);
  }
  EXPECT_TRUE(RunRequest(**request, {Value::Int(42)}).rows.empty());
}

TEST_F(ParamsTest, IndexAccessPathsUseParameters) {
  std::string values;
  for (int i = 10; i < 2000; ++i) {
    values += (values.empty() ? "(" : ",(") + std::to_string(i) + ", 'n" + std::to_string(i) + "')";
  }
  ASSERT_TRUE(Q("INSERT INTO t (id, name) VALUES " + values).status.ok());
  ASSERT_TRUE(Q("ANALYZE t").status.ok());
  auto plan = [&](const std::string& sql, std::vector<Value> values) {
    std::string out;
    for (const std::string& line : Ok("EXPLAIN " + sql, std::move(values))) out += line + "\n";
    return out;
  };
  std::string p = plan("SELECT * FROM t WHERE id = $1", {Value::Int(2)});
  EXPECT_EQ(p.rfind("Index Scan using t_pkey on t", 0), 0u) << p;
  EXPECT_NE(p.find("Index Cond: (t.id = $1)"), std::string::npos) << p;
  p = plan("SELECT * FROM t WHERE id >= $1 AND id < $2", {Value::Int(1), Value::Int(3)});
  EXPECT_NE(p.find("Index Cond: ((t.id >= $1) AND (t.id < $2))"), std::string::npos) << p;
  p = plan("DELETE FROM t WHERE id = $1", {Value::Int(2)});
  EXPECT_NE(p.find("Index Scan using t_pkey on t"), std::string::npos) << p;
  // The index scan evaluates the parameter when it runs.
  EXPECT_EQ(Ok("SELECT name FROM t WHERE id = $1", {Value::String("3")}), Strings{"thr'ee"});
  EXPECT_EQ(
      Ok("SELECT id FROM t WHERE id >= $1 AND id < $2 ORDER BY id", {Value::Int(2), Value::Int(4)}),
      (Strings{"2", "3"}));
  EXPECT_EQ(Ok("EXPLAIN ANALYZE SELECT * FROM t WHERE id = $1", {Value::Int(1)}).size() > 2, true);
}

}  // namespace
}  // namespace meridian::testing
