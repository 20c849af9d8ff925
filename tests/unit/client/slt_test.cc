// Tests of the sqllogictest runner: parser, value formatting, sorting, MD5 and hashing, and
// record execution against a fake executor.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "runner/md5.h"
#include "runner/slt_format.h"
#include "runner/slt_parser.h"
#include "runner/slt_runner.h"

namespace meridian::slt {
namespace {

using client::ColumnInfo;
using client::StatementResult;
using client::Value;

TEST(Md5Test, Rfc1321Vectors) {
  EXPECT_EQ(Md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Md5Hex("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Md5Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Md5Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Md5Hex("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(Md5Hex("12345678901234567890123456789012345678901234567890123456789012345678901234"
                   "567890"),
            "57edf4a22be3c955ac49da2e2107b67a");
  // Incremental updates across block boundaries give the same digest.
  std::string long_text(1000, 'x');
  Md5 md5;
  for (size_t i = 0; i < long_text.size(); i += 7) md5.Update(long_text.substr(i, 7));
  EXPECT_EQ(md5.HexDigest(), Md5Hex(long_text));
}

TEST(SltParserTest, ParsesRecords) {
  const char* text =
      "# comment\n"
      "hash-threshold 8\n"
      "\n"
      "statement ok\n"
      "CREATE TABLE t1(a INTEGER,\n"
      "  b INTEGER)\n"
      "\n"
      "skipif mysql\n"
      "onlyif postgresql\n"
      "query II rowsort label-1\n"
      "SELECT a, b\n"
      "  FROM t1\n"
      "----\n"
      "1\n"
      "2\n"
      "\n"
      "statement error\n"
      "SELEC 1\n"
      "\n"
      "statement error 22012\n"
      "SELECT 1/0\n"
      "\n"
      "query T nosort\n"
      "SELECT 'x'\n"
      "\n"
      "halt\n"
      "\n"
      "loop i 0 10\n"
      "\n";
  auto records = ParseSlt(text);
  ASSERT_EQ(records.size(), 8u);
  EXPECT_EQ(records[0].kind, SltRecord::Kind::kHashThreshold);
  EXPECT_EQ(records[0].hash_threshold, 8);
  EXPECT_EQ(records[1].kind, SltRecord::Kind::kStatement);
  EXPECT_FALSE(records[1].expect_error);
  EXPECT_EQ(records[1].sql, "CREATE TABLE t1(a INTEGER,\n  b INTEGER)");
  EXPECT_EQ(records[1].line, 4);
  const SltRecord& q = records[2];
  EXPECT_EQ(q.kind, SltRecord::Kind::kQuery);
  EXPECT_EQ(q.types, "II");
  EXPECT_EQ(q.sort, SortMode::kRowSort);
  EXPECT_EQ(q.label, "label-1");
  EXPECT_EQ(q.sql, "SELECT a, b\n  FROM t1");
  EXPECT_TRUE(q.has_expected);
  EXPECT_EQ(q.expected, (std::vector<std::string>{"1", "2"}));
  ASSERT_EQ(q.conditions.size(), 2u);
  EXPECT_FALSE(q.conditions[0].only_if);
  EXPECT_TRUE(q.conditions[1].only_if);
  EXPECT_TRUE(ShouldRun(q, "postgresql"));
  EXPECT_TRUE(ShouldRun(q, "PostgreSQL"));
  EXPECT_FALSE(ShouldRun(q, "mysql"));
  EXPECT_FALSE(ShouldRun(q, "sqlite"));
  EXPECT_TRUE(records[3].expect_error);
  EXPECT_EQ(records[3].expected_sqlstate, "");
  EXPECT_EQ(records[4].expected_sqlstate, "22012");
  EXPECT_FALSE(records[5].has_expected);
  EXPECT_EQ(records[6].kind, SltRecord::Kind::kHalt);
  EXPECT_EQ(records[7].kind, SltRecord::Kind::kUnknown);
  EXPECT_EQ(records[7].command, "loop i 0 10");
  EXPECT_TRUE(records[1].conditions.empty());
}

TEST(SltParserTest, MeridianDirectives) {
  const char* text =
      "connection t1\nstatement ok\nBEGIN\n\n"
      "statement error 40001 async\nUPDATE t SET a = 1\n\n"
      "query II rowsort async\nSELECT 1, 2\n----\n1 2\n\n"
      "wait t1\n\n"
      "restart\n\nrestart kill\n\n"
      "query plan\nSELECT 1\n----\nResult\n  Output: 1\n";
  auto records = ParseSlt(text);
  ASSERT_EQ(records.size(), 8u);
  EXPECT_EQ(records[0].kind, SltRecord::Kind::kConnection);
  EXPECT_EQ(records[0].connection, "t1");
  EXPECT_EQ(records[1].kind, SltRecord::Kind::kStatement);  // right after `connection`
  EXPECT_EQ(records[1].sql, "BEGIN");
  EXPECT_FALSE(records[1].async);
  EXPECT_TRUE(records[2].async);
  EXPECT_TRUE(records[2].expect_error);
  EXPECT_EQ(records[2].expected_sqlstate, "40001");
  EXPECT_TRUE(records[3].async);
  EXPECT_EQ(records[3].types, "II");
  EXPECT_EQ(records[3].sort, SortMode::kRowSort);
  EXPECT_EQ(records[4].kind, SltRecord::Kind::kWait);
  EXPECT_EQ(records[4].connection, "t1");
  EXPECT_EQ(records[5].kind, SltRecord::Kind::kRestart);
  EXPECT_FALSE(records[5].kill);
  EXPECT_TRUE(records[6].kill);
  EXPECT_TRUE(records[7].plan);
  EXPECT_EQ(records[7].types, "");
  EXPECT_EQ(records[7].expected, (std::vector<std::string>{"Result", "  Output: 1"}));
}

TEST(SltParserTest, UnknownRecordsAndCrLf) {
  auto records = ParseSlt("mode output\r\nfoo\r\n\r\nstatement ok\r\nSELECT 1\r\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].kind, SltRecord::Kind::kUnknown);
  EXPECT_EQ(records[1].sql, "SELECT 1");
}

TEST(SltFormatTest, Values) {
  EXPECT_EQ(FormatSltValue(Value::Null(), 'I'), "NULL");
  EXPECT_EQ(FormatSltValue(Value::Null(), 'T'), "NULL");
  EXPECT_EQ(FormatSltValue(Value::Int(-7), 'I'), "-7");
  EXPECT_EQ(FormatSltValue(Value::Double(2.9), 'I'), "2");
  EXPECT_EQ(FormatSltValue(Value::Double(-2.9), 'I'), "-2");
  EXPECT_EQ(FormatSltValue(Value::Text("42"), 'I'), "42");
  EXPECT_EQ(FormatSltValue(Value::Int(3), 'R'), "3.000");
  EXPECT_EQ(FormatSltValue(Value::Double(2.0 / 3), 'R'), "0.667");
  EXPECT_EQ(FormatSltValue(Value::Double(-1.5), 'R'), "-1.500");
  EXPECT_EQ(FormatSltValue(Value::Text(""), 'T'), "(empty)");
  EXPECT_EQ(FormatSltValue(Value::Text("a\tb\xc3\xa9"), 'T'), "a@b@@");
  EXPECT_EQ(FormatSltValue(Value::Int(5), 'T'), "5");
  EXPECT_EQ(FormatSltValue(Value::Double(1.5), 'T'), "1.5");
  EXPECT_EQ(FormatSltValue(Value::Bool(true), 'T'), "true");
  EXPECT_EQ(FormatSltValue(Value::Bool(false), 'I'), "0");
}

StatementResult Result(std::vector<std::vector<Value>> rows, size_t ncols) {
  StatementResult r;
  for (size_t i = 0; i < ncols; ++i) {
    r.columns.push_back(ColumnInfo{"c" + std::to_string(i), "integer", -1, 23, true});
  }
  r.rows = std::move(rows);
  return r;
}

TEST(SltFormatTest, SortModesAndHash) {
  StatementResult r = Result({{Value::Int(3), Value::Int(10)},
                              {Value::Int(10), Value::Int(2)},
                              {Value::Int(3), Value::Int(1)}},
                             2);
  EXPECT_EQ(FormatResult(r, "II", SortMode::kNoSort),
            (std::vector<std::string>{"3", "10", "10", "2", "3", "1"}));
  // Sorting compares the strings: "10" < "3".
  EXPECT_EQ(FormatResult(r, "II", SortMode::kRowSort),
            (std::vector<std::string>{"10", "2", "3", "1", "3", "10"}));
  EXPECT_EQ(FormatResult(r, "II", SortMode::kValueSort),
            (std::vector<std::string>{"1", "10", "10", "2", "3", "3"}));
  EXPECT_EQ(HashValues({}), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(HashValues({"a"}), Md5Hex("a\n"));
  EXPECT_EQ(HashLine({"1", "2"}), "2 values hashing to " + Md5Hex("1\n2\n"));
  EXPECT_TRUE(IsHashLine("30 values hashing to 3c13dee48d9356ae19af2515e05e6b54"));
  EXPECT_FALSE(IsHashLine("30 values hashing to xyz"));
  EXPECT_FALSE(IsHashLine("30"));
}

// Answers SQL from a map; unknown SQL fails with 42601.
class FakeExecutor : public SltExecutor {
 public:
  std::map<std::string, StatementResult> results;
  std::map<std::string, std::string> errors;  // sql -> sqlstate
  bool lose_connection_on_error = false;
  std::vector<std::string> executed;

  client::ClientResult<StatementResult> Execute(const std::string& sql) override {
    executed.push_back(sql);
    if (auto it = results.find(sql); it != results.end()) return it->second;
    client::ClientError e;
    auto it = errors.find(sql);
    e.sqlstate = it != errors.end() ? it->second : "42601";
    e.message = "failed: " + sql;
    e.connection_lost = lose_connection_on_error && it == errors.end();
    return e;
  }
};

TEST(SltRunnerTest, CountsPassFailSkip) {
  FakeExecutor ex;
  ex.results["CREATE TABLE t(a INT)"] = StatementResult();
  ex.results["SELECT a FROM t"] = Result({{Value::Int(2)}, {Value::Int(1)}, {Value::Null()}}, 1);
  ex.results["SELECT a, a FROM t"] =
      Result({{Value::Int(2), Value::Int(2)}, {Value::Int(1), Value::Int(1)}}, 2);
  ex.errors["SELECT 1/0"] = "22012";
  const char* text =
      "statement ok\nCREATE TABLE t(a INT)\n\n"                   // pass
      "query I rowsort\nSELECT a FROM t\n----\n1\n2\nNULL\n\n"    // pass
      "query I nosort\nSELECT a FROM t\n----\n1\n2\nNULL\n\n"     // fail: order
      "query II rowsort\nSELECT a, a FROM t\n----\n1 1\n2 2\n\n"  // pass: row per line
      "query I rowsort\nSELECT a, a FROM t\n----\n1\n\n"          // fail: column count
      "statement error 22012\nSELECT 1/0\n\n"                     // pass
      "statement error 42601\nSELECT 1/0\n\n"                     // fail: sqlstate
      "statement error\nCREATE TABLE t(a INT)\n\n"                // fail: succeeded
      "onlyif mysql\nstatement ok\nSELECT mysql_only()\n\n"       // skip
      "skipif postgresql\nstatement ok\nSELECT not_pg()\n\n"      // skip
      "statement ok\nSELECT nope\n\n";                            // fail
  std::ostringstream log;
  SltRunOptions options;
  options.verbose = true;
  SltFileResult r = RunSltRecords(ParseSlt(text), ex, options, "x.test", log);
  EXPECT_EQ(r.passed, 4) << log.str();
  EXPECT_EQ(r.failed, 5) << log.str();
  EXPECT_EQ(r.skipped, 2);
  EXPECT_FALSE(r.connection_lost);
  EXPECT_NE(log.str().find("FAIL x.test:11: result mismatch"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("expected SQLSTATE 42601, got ERROR:  22012"), std::string::npos);
}

TEST(SltRunnerTest, HashThresholdAndLabels) {
  FakeExecutor ex;
  ex.results["q1"] = Result({{Value::Int(1)}, {Value::Int(2)}, {Value::Int(3)}}, 1);
  ex.results["q2"] = Result({{Value::Int(3)}, {Value::Int(2)}, {Value::Int(1)}}, 1);
  ex.results["q3"] = Result({{Value::Int(4)}}, 1);
  std::string hash = HashLine({"1", "2", "3"});
  std::string text = "hash-threshold 2\n\nquery I nosort label-a\nq1\n----\n" + hash +
                     "\n\n"
                     "query I rowsort label-a\nq2\n----\n" +
                     hash +
                     "\n\n"
                     "query I nosort label-a\nq3\n\n"         // differs from label-a: fail
                     "query I nosort\nq1\n----\n1\n2\n3\n\n"  // values under threshold too
                     "halt\n\n"
                     "query I nosort\nnot run\n";
  std::ostringstream log;
  SltFileResult r = RunSltRecords(ParseSlt(text), ex, SltRunOptions(), "h.test", log);
  EXPECT_EQ(r.passed, 3) << log.str();
  EXPECT_EQ(r.failed, 1) << log.str();
  EXPECT_EQ(ex.executed.size(), 4u);  // halt stopped the file
}

TEST(SltRunnerTest, ConnectionLossFailsTheRest) {
  FakeExecutor ex;
  ex.lose_connection_on_error = true;
  ex.results["ok"] = StatementResult();
  const char* text =
      "statement ok\nok\n\nstatement ok\ncrash\n\nstatement ok\nok\n\n"
      "skipif postgresql\nstatement ok\nok\n\nquery I nosort\nok\n";
  std::ostringstream log;
  SltFileResult r = RunSltRecords(ParseSlt(text), ex, SltRunOptions(), "c.test", log);
  EXPECT_TRUE(r.connection_lost);
  EXPECT_EQ(r.passed, 1);
  EXPECT_EQ(r.failed, 3);
  EXPECT_EQ(ex.executed.size(), 2u);
}

// Sessions by name; "block ..." statements block until collected, others finish at once.
class FakeSessions : public SltExecutor {
 public:
  std::string current = "default";
  std::vector<std::string> log;                // "session: sql"
  std::map<std::string, std::string> pending;  // session -> its background sql
  std::map<std::string, StatementResult> results;
  std::map<std::string, std::string> errors;  // sql -> sqlstate

  client::ClientResult<StatementResult> Answer(const std::string& sql) {
    if (auto it = results.find(sql); it != results.end()) return it->second;
    client::ClientError e;
    auto it = errors.find(sql);
    e.sqlstate = it != errors.end() ? it->second : "42601";
    return e;
  }
  client::ClientResult<StatementResult> Execute(const std::string& sql) override {
    log.push_back(current + ": " + sql);
    return Answer(sql);
  }
  client::ClientStatus UseSession(const std::string& name) override {
    current = name;
    return {};
  }
  client::ClientResult<bool> StartBlocking(const std::string& sql) override {
    log.push_back(current + ": start " + sql);
    pending[current] = sql;
    return sql.rfind("block", 0) == 0;
  }
  bool HasPending(const std::string& name) const override { return pending.count(name) > 0; }
  client::ClientResult<StatementResult> Collect(const std::string& name) override {
    std::string sql = pending[name];
    pending.erase(name);
    log.push_back(name + ": collect " + sql);
    return Answer(sql);
  }
};

TEST(SltRunnerTest, ConnectionsAsyncAndWait) {
  FakeSessions ex;
  ex.results["BEGIN"] = StatementResult();
  ex.results["block update"] = Result({{Value::Int(1)}}, 1);
  ex.results["quick"] = StatementResult();
  ex.errors["block fail"] = "40001";
  const char* text =
      "statement ok\nBEGIN\n\n"
      "connection t2\nquery I nosort async\nblock update\n----\n1\n\n"  // pass at wait
      "connection t1\nstatement error 40001 async\nblock fail\n\n"      // pass at wait
      "statement ok async\nquick\n\n"                                   // fail: t1 is busy
      "connection t4\nstatement ok async\nquick\n\n"                    // fail: it did not block
      "wait t1\n\nwait t2\n\n"
      "wait t2\n\n"                                            // fail: nothing runs on t2
      "connection t3\nstatement ok async\nblock forever\n\n";  // fail: never collected
  std::ostringstream log;
  SltRunOptions options;
  options.verbose = true;
  SltFileResult r = RunSltRecords(ParseSlt(text), ex, options, "s.test", log);
  EXPECT_EQ(r.passed, 3) << log.str();
  EXPECT_EQ(r.failed, 4) << log.str();
  EXPECT_NE(log.str().find("t1 still runs an async statement"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("did not block"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("no async record runs on that connection"), std::string::npos);
  EXPECT_NE(log.str().find("never collected"), std::string::npos);
  EXPECT_EQ(ex.log.front(), "default: BEGIN");
  EXPECT_EQ(ex.log[1], "t2: start block update");
}

TEST(SltRunnerTest, QueryPlanAndRestartWithoutDaemon) {
  FakeSessions ex;
  StatementResult plan;
  plan.columns.push_back(ColumnInfo{"QUERY PLAN", "text", -1, 25, true});
  plan.rows = {{Value::Text("Index Scan using t_pkey on t  ")},
               {Value::Text("  Index Cond: (t.a = 1)")}};
  ex.results["EXPLAIN (COSTS OFF) SELECT * FROM t WHERE a = 1"] = plan;
  const char* text =
      "query plan\nSELECT * FROM t WHERE a = 1\n----\nIndex Scan using t_pkey on t\n"
      "  Index Cond: (t.a = 1)\n\n"
      "query plan\nSELECT * FROM t WHERE a = 1\n----\nSeq Scan on t\n\n"  // fail
      "restart\n";  // skipped: the fake cannot restart
  std::ostringstream log;
  SltRunOptions options;
  options.verbose = true;
  SltFileResult r = RunSltRecords(ParseSlt(text), ex, options, "p.test", log);
  EXPECT_EQ(r.passed, 1) << log.str();
  EXPECT_EQ(r.failed, 1) << log.str();
  EXPECT_EQ(r.skipped, 1) << log.str();
  EXPECT_NE(log.str().find("plan mismatch"), std::string::npos) << log.str();
}

}  // namespace
}  // namespace meridian::slt
