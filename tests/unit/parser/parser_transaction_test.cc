// Transaction control and row locking: BEGIN / START TRANSACTION with modes, COMMIT / END,
// ROLLBACK / ABORT, savepoints, SET TRANSACTION, SET SESSION CHARACTERISTICS, SHOW / RESET
// TRANSACTION ISOLATION LEVEL, SELECT ... FOR UPDATE / SHARE in every position, their errors,
// and the new keywords still usable as table and column names.

#include <random>

#include "parser_test_util.h"

namespace meridian::parser::testing {
namespace {

using Action = ast::TransactionStmt::Action;
using Strength = ast::LockingClause::Strength;

// "ok" or the SQLSTATE of the parse.
std::string StateOf(std::string_view sql) {
  auto r = Parse(sql);
  return r.ok() ? "ok" : r.status().sqlstate();
}

// "ok" or "<sqlstate> <message> @<position>".
std::string ErrorOf(std::string_view sql) {
  auto r = Parse(sql);
  if (r.ok()) return "ok";
  return r.status().sqlstate() + " " + r.status().message() + " @" +
         std::to_string(r.status().position());
}

const ast::TransactionStmt& Txn(const ast::Statement& s) {
  EXPECT_EQ(s.kind, ast::StatementKind::kTransaction) << s.text;
  static const ast::TransactionStmt kEmpty;
  return s.transaction ? *s.transaction : kEmpty;
}

// Everything Parse says of a request of transaction statements: the shortcut for a bare keyword
// (parser.cc, BareTransactionKeyword) must say what ANTLR alone says.
std::string DescribeTransactions(const Result<std::vector<ast::Statement>>& r) {
  if (!r.ok()) return "error " + r.status().sqlstate() + " " + r.status().message();
  std::string out;
  for (const ast::Statement& s : r.value()) {
    out += "[" + std::to_string(static_cast<int>(s.kind)) + " @" + std::to_string(s.loc.position) +
           ":" + std::to_string(s.loc.line) + ":" + std::to_string(s.loc.column) + " '" + s.text +
           "' notices " + std::to_string(s.notices.size());
    if (s.transaction != nullptr) {
      const ast::TransactionStmt& t = *s.transaction;
      out += " action " + std::to_string(static_cast<int>(t.action)) + " iso '" + t.isolation +
             "' ro " + (t.read_only ? std::to_string(*t.read_only) : "-") + " def " +
             (t.deferrable ? std::to_string(*t.deferrable) : "-") + " sp '" + t.savepoint +
             "' start " + std::to_string(t.start_transaction);
    }
    out += "]";
  }
  return out;
}

TEST(ParserTransaction, BareKeywordShortcutGivesAntlrsAst) {
  for (const char* sql :
       {"BEGIN", "begin", "Commit", "COMMIT;", "END ;", "end", "ROLLBACK\n", "abort ; \t", "ABORT",
        "BEGIN;\r\n", "COMMIT\v\f", "rollback;",
        // Not the shortcut's: ANTLR alone.
        "BEGIN;;", "COMMIT; COMMIT", " BEGIN", "BEGIN WORK", "COMMIT -- done", "BEGINX", "BEGI", "",
        ";", "ROLLBACK TO s", "START", "commit\xc3\xa9", "END/* */"}) {
    SCOPED_TRACE(sql);
    const std::string expected = DescribeTransactions(ParseWithoutShortcuts(sql));
    EXPECT_EQ(DescribeTransactions(Parse(sql)), expected);
  }
  EXPECT_EQ(DescribeTransactions(Parse("End;")),
            "[" + std::to_string(static_cast<int>(ast::StatementKind::kTransaction)) +
                " @1:1:1 'End' notices 0 action 1 iso '' ro - def - sp '' start 0]");
}

TEST(ParserTransaction, BeginForms) {
  for (const char* sql :
       {"BEGIN", "begin work", "BEGIN TRANSACTION", "START TRANSACTION", "start transaction;"}) {
    auto r = Parse(sql);
    ASSERT_TRUE(r.ok()) << sql << " -> " << r.status().ToString();
    ASSERT_EQ(r->size(), 1u) << sql;
    const ast::TransactionStmt& t = Txn((*r)[0]);
    EXPECT_EQ(t.action, Action::kBegin) << sql;
    EXPECT_EQ(t.isolation, "") << sql;
    EXPECT_FALSE(t.read_only.has_value()) << sql;
    EXPECT_FALSE(t.deferrable.has_value()) << sql;
    EXPECT_EQ(t.savepoint, "") << sql;
    EXPECT_EQ(t.start_transaction, sql[0] == 's' || sql[0] == 'S') << sql;
  }
  ast::Statement s = ParseOne("BEGIN");
  EXPECT_EQ(s.text, "BEGIN");
  EXPECT_EQ(s.loc.position, 1u);
  EXPECT_EQ(s.select, nullptr);
  EXPECT_EQ(s.variable, nullptr);
}

TEST(ParserTransaction, IsolationLevels) {
  const std::pair<const char*, const char*> cases[] = {
      {"SERIALIZABLE", "serializable"},
      {"repeatable read", "repeatable read"},
      {"Read Committed", "read committed"},
      {"READ UNCOMMITTED", "read uncommitted"},
  };
  for (const auto& [written, canonical] : cases) {
    for (const char* prefix : {"BEGIN ISOLATION LEVEL ", "START TRANSACTION ISOLATION LEVEL ",
                               "BEGIN WORK ISOLATION LEVEL ", "SET TRANSACTION ISOLATION LEVEL ",
                               "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL "}) {
      std::string sql = std::string(prefix) + written;
      ast::Statement s = ParseOne(sql);
      EXPECT_EQ(Txn(s).isolation, canonical) << sql;
      EXPECT_FALSE(Txn(s).read_only.has_value()) << sql;
    }
  }
}

TEST(ParserTransaction, ModeListsWithCommasOrSpaces) {
  ast::Statement s = ParseOne("BEGIN ISOLATION LEVEL SERIALIZABLE, READ ONLY, DEFERRABLE");
  const ast::TransactionStmt& t = Txn(s);
  EXPECT_EQ(t.action, Action::kBegin);
  EXPECT_EQ(t.isolation, "serializable");
  EXPECT_EQ(t.read_only, std::optional<bool>(true));
  EXPECT_EQ(t.deferrable, std::optional<bool>(true));

  s = ParseOne("START TRANSACTION READ WRITE NOT DEFERRABLE ISOLATION LEVEL READ COMMITTED");
  EXPECT_EQ(Txn(s).isolation, "read committed");
  EXPECT_EQ(Txn(s).read_only, std::optional<bool>(false));
  EXPECT_EQ(Txn(s).deferrable, std::optional<bool>(false));

  // READ COMMITTED followed by READ ONLY without a comma.
  s = ParseOne("begin transaction isolation level read committed read only");
  EXPECT_EQ(Txn(s).isolation, "read committed");
  EXPECT_EQ(Txn(s).read_only, std::optional<bool>(true));

  s = ParseOne("SET TRANSACTION READ ONLY, ISOLATION LEVEL REPEATABLE READ");
  EXPECT_EQ(Txn(s).action, Action::kSetTransaction);
  EXPECT_EQ(Txn(s).isolation, "repeatable read");
  EXPECT_EQ(Txn(s).read_only, std::optional<bool>(true));

  s = ParseOne("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE");
  EXPECT_EQ(Txn(s).action, Action::kSetSessionDefaults);
  EXPECT_EQ(Txn(s).read_only, std::optional<bool>(false));
  EXPECT_EQ(Txn(s).isolation, "");

  // PostgreSQL accepts SESSION / LOCAL before TRANSACTION; it changes nothing.
  EXPECT_EQ(Txn(ParseOne("SET LOCAL TRANSACTION READ ONLY")).action, Action::kSetTransaction);
  EXPECT_EQ(Txn(ParseOne("SET SESSION TRANSACTION DEFERRABLE")).action, Action::kSetTransaction);

  // The same mode twice with the same value is fine.
  s = ParseOne(
      "BEGIN READ ONLY READ ONLY, ISOLATION LEVEL SERIALIZABLE ISOLATION LEVEL SERIALIZABLE");
  EXPECT_EQ(Txn(s).read_only, std::optional<bool>(true));
  EXPECT_EQ(Txn(s).isolation, "serializable");
}

TEST(ParserTransaction, ConflictingModes) {
  EXPECT_EQ(ErrorOf("BEGIN ISOLATION LEVEL SERIALIZABLE, ISOLATION LEVEL READ COMMITTED"),
            "42601 conflicting or redundant options @37");
  EXPECT_EQ(ErrorOf("BEGIN READ ONLY READ WRITE"), "42601 conflicting or redundant options @17");
  EXPECT_EQ(ErrorOf("SET TRANSACTION DEFERRABLE, NOT DEFERRABLE"),
            "42601 conflicting or redundant options @29");
  EXPECT_EQ(StateOf("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE, READ ONLY"), "42601");
  EXPECT_EQ(StateOf("START TRANSACTION ISOLATION LEVEL READ UNCOMMITTED ISOLATION LEVEL "
                    "REPEATABLE READ"),
            "42601");
}

TEST(ParserTransaction, CommitAndRollbackForms) {
  for (const char* sql :
       {"COMMIT", "commit work", "COMMIT TRANSACTION", "END", "end work", "END TRANSACTION",
        "COMMIT AND NO CHAIN", "END TRANSACTION AND NO CHAIN"}) {
    EXPECT_EQ(Txn(ParseOne(sql)).action, Action::kCommit) << sql;
  }
  for (const char* sql :
       {"ROLLBACK", "rollback work", "ROLLBACK TRANSACTION", "ABORT", "abort work",
        "ABORT TRANSACTION", "ROLLBACK AND NO CHAIN", "ABORT WORK AND NO CHAIN"}) {
    EXPECT_EQ(Txn(ParseOne(sql)).action, Action::kRollback) << sql;
  }
  EXPECT_EQ(ErrorOf("COMMIT AND CHAIN"), "0A000 COMMIT AND CHAIN is not supported @8");
  EXPECT_EQ(ErrorOf("ROLLBACK WORK AND CHAIN"), "0A000 ROLLBACK AND CHAIN is not supported @15");
  EXPECT_EQ(StateOf("END AND CHAIN"), "0A000");
  EXPECT_EQ(StateOf("ABORT AND CHAIN"), "0A000");
}

TEST(ParserTransaction, Savepoints) {
  ast::Statement s = ParseOne("SAVEPOINT My_Point");
  EXPECT_EQ(Txn(s).action, Action::kSavepoint);
  EXPECT_EQ(Txn(s).savepoint, "my_point");
  EXPECT_EQ(Txn(s).savepoint_loc.position, 11u);
  s = ParseOne("SAVEPOINT \"Quoted Name\"");
  EXPECT_EQ(Txn(s).savepoint, "Quoted Name");

  s = ParseOne("RELEASE SAVEPOINT a");
  EXPECT_EQ(Txn(s).action, Action::kRelease);
  EXPECT_EQ(Txn(s).savepoint, "a");
  s = ParseOne("release B");
  EXPECT_EQ(Txn(s).action, Action::kRelease);
  EXPECT_EQ(Txn(s).savepoint, "b");
  // Keywords as savepoint names: "RELEASE savepoint" releases the savepoint named savepoint.
  s = ParseOne("RELEASE savepoint");
  EXPECT_EQ(Txn(s).savepoint, "savepoint");
  s = ParseOne("RELEASE SAVEPOINT savepoint");
  EXPECT_EQ(Txn(s).savepoint, "savepoint");
  s = ParseOne("SAVEPOINT work");
  EXPECT_EQ(Txn(s).savepoint, "work");

  for (const char* sql : {"ROLLBACK TO SAVEPOINT sp", "ROLLBACK TO sp", "rollback work to sp",
                          "ROLLBACK TRANSACTION TO SAVEPOINT sp"}) {
    s = ParseOne(sql);
    EXPECT_EQ(Txn(s).action, Action::kRollbackTo) << sql;
    EXPECT_EQ(Txn(s).savepoint, "sp") << sql;
  }
  s = ParseOne("ROLLBACK TO savepoint");
  EXPECT_EQ(Txn(s).action, Action::kRollbackTo);
  EXPECT_EQ(Txn(s).savepoint, "savepoint");
}

TEST(ParserTransaction, SyntaxErrors) {
  EXPECT_EQ(ErrorOf("SAVEPOINT"), "42601 syntax error at end of input @10");
  EXPECT_EQ(StateOf("RELEASE"), "42601");
  EXPECT_EQ(StateOf("ROLLBACK TO"), "42601");
  // As in PostgreSQL, a lone SAVEPOINT after RELEASE / ROLLBACK TO is the savepoint's name.
  EXPECT_EQ(Txn(ParseOne("RELEASE SAVEPOINT")).savepoint, "savepoint");
  EXPECT_EQ(Txn(ParseOne("ROLLBACK TO SAVEPOINT")).savepoint, "savepoint");
  EXPECT_EQ(StateOf("SET TRANSACTION"), "42601");  // SET TRANSACTION needs a mode
  EXPECT_EQ(StateOf("SET SESSION CHARACTERISTICS AS TRANSACTION"), "42601");
  EXPECT_EQ(StateOf("BEGIN ISOLATION LEVEL"), "42601");
  EXPECT_EQ(ErrorOf("BEGIN ISOLATION LEVEL READ"), "42601 syntax error at end of input @27");
  EXPECT_EQ(ErrorOf("BEGIN ISOLATION LEVEL SNAPSHOT"),
            "42601 syntax error at or near \"SNAPSHOT\" @23");
  EXPECT_EQ(StateOf("BEGIN READ ONLY,"), "42601");
  EXPECT_EQ(StateOf("BEGIN , READ ONLY"), "42601");
  EXPECT_EQ(StateOf("BEGIN WORK TRANSACTION"), "42601");
  EXPECT_EQ(StateOf("START"), "42601");
  EXPECT_EQ(StateOf("START WORK"), "42601");
  EXPECT_EQ(StateOf("COMMIT READ ONLY"), "42601");  // modes only for BEGIN and SET
  EXPECT_EQ(StateOf("COMMIT AND"), "42601");
  EXPECT_EQ(StateOf("SAVEPOINT a b"), "42601");
  EXPECT_EQ(StateOf("ABORT TO SAVEPOINT a"), "42601");  // only ROLLBACK has TO
  EXPECT_EQ(StateOf("COMMIT PREPARED 'x'"), "42601");   // two-phase commit: not supported
  EXPECT_EQ(ErrorOf("EXPLAIN BEGIN"), "42601 syntax error at or near \"BEGIN\" @9");
  EXPECT_EQ(StateOf("EXPLAIN commit"), "42601");
}

TEST(ParserTransaction, MultiStatementRequest) {
  auto r = Parse("BEGIN; UPDATE t SET a = 1; SAVEPOINT s; ROLLBACK TO s; COMMIT");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 5u);
  EXPECT_EQ(Txn((*r)[0]).action, Action::kBegin);
  EXPECT_EQ((*r)[1].kind, ast::StatementKind::kUpdate);
  EXPECT_EQ(Txn((*r)[2]).action, Action::kSavepoint);
  EXPECT_EQ(Txn((*r)[3]).action, Action::kRollbackTo);
  EXPECT_EQ((*r)[3].text, "ROLLBACK TO s");
  EXPECT_EQ(Txn((*r)[4]).action, Action::kCommit);
  EXPECT_EQ((*r)[4].loc.position, 56u);
  // END after CASE ... END: the nesting pre-scan must not be confused.
  r = Parse("SELECT CASE WHEN a THEN 1 END FROM t; END");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Txn((*r)[1]).action, Action::kCommit);
}

TEST(ParserTransaction, SetShowResetStayGeneric) {
  ast::Statement s = ParseOne("SET transaction_isolation = 'repeatable read'");
  ASSERT_EQ(s.kind, ast::StatementKind::kSet);
  EXPECT_EQ(s.variable->name, "transaction_isolation");
  EXPECT_EQ(s.variable->values, (std::vector<std::string>{"repeatable read"}));
  s = ParseOne("SET SESSION default_transaction_isolation TO 'serializable'");
  ASSERT_EQ(s.kind, ast::StatementKind::kSet);
  EXPECT_EQ(s.variable->name, "default_transaction_isolation");
  // Parameters named like the new keywords are still parameters.
  s = ParseOne("SET transaction TO 1");
  ASSERT_EQ(s.kind, ast::StatementKind::kSet);
  EXPECT_EQ(s.variable->name, "transaction");
  s = ParseOne("SET SESSION characteristics = on");
  ASSERT_EQ(s.kind, ast::StatementKind::kSet);
  EXPECT_EQ(s.variable->name, "characteristics");
  s = ParseOne("SET LOCAL read.only TO level");
  ASSERT_EQ(s.kind, ast::StatementKind::kSet);
  EXPECT_EQ(s.variable->name, "read.only");
  EXPECT_EQ(s.variable->values, (std::vector<std::string>{"level"}));
  s = ParseOne("SET default_transaction_read_only = true");
  EXPECT_EQ(s.variable->values, (std::vector<std::string>{"true"}));

  s = ParseOne("SHOW transaction_isolation");
  ASSERT_EQ(s.kind, ast::StatementKind::kShow);
  EXPECT_EQ(s.variable->name, "transaction_isolation");
  s = ParseOne("SHOW TRANSACTION ISOLATION LEVEL");
  ASSERT_EQ(s.kind, ast::StatementKind::kShow);
  EXPECT_EQ(s.variable->name, "transaction_isolation");
  EXPECT_EQ(s.variable->name_loc.position, 6u);
  EXPECT_FALSE(s.variable->all);
  s = ParseOne("show transaction");
  EXPECT_EQ(s.variable->name, "transaction");
  s = ParseOne("RESET TRANSACTION ISOLATION LEVEL");
  ASSERT_EQ(s.kind, ast::StatementKind::kReset);
  EXPECT_EQ(s.variable->name, "transaction_isolation");
  EXPECT_EQ(StateOf("SHOW TRANSACTION ISOLATION"), "42601");
}

TEST(ParserLocking, Strengths) {
  const std::pair<const char*, Strength> cases[] = {
      {"FOR UPDATE", Strength::kUpdate},
      {"for no key update", Strength::kNoKeyUpdate},
      {"FOR SHARE", Strength::kShare},
      {"FOR KEY SHARE", Strength::kKeyShare},
  };
  for (const auto& [clause, strength] : cases) {
    std::string sql = std::string("SELECT * FROM t WHERE a = 1 ") + clause;
    ast::Statement s = ParseOne(sql);
    ASSERT_EQ(s.select->locking.size(), 1u) << sql;
    const ast::LockingClause& lc = s.select->locking[0];
    EXPECT_EQ(lc.strength, strength) << sql;
    EXPECT_TRUE(lc.of_tables.empty()) << sql;
    EXPECT_FALSE(lc.nowait) << sql;
    EXPECT_FALSE(lc.skip_locked) << sql;
    EXPECT_EQ(lc.loc.position, 29u) << sql;
  }
  EXPECT_STREQ(ast::LockingStrengthName(Strength::kNoKeyUpdate), "FOR NO KEY UPDATE");
  EXPECT_TRUE(ParseOne("SELECT * FROM t").select->locking.empty());
}

TEST(ParserLocking, OfWaitPolicyAndRepetition) {
  ast::Statement s = ParseOne(
      "SELECT * FROM a, b x, c FOR UPDATE OF a, X NOWAIT FOR SHARE OF c SKIP LOCKED "
      "FOR KEY SHARE");
  const auto& locking = s.select->locking;
  ASSERT_EQ(locking.size(), 3u);
  EXPECT_EQ(locking[0].strength, Strength::kUpdate);
  EXPECT_EQ(locking[0].of_tables, (std::vector<std::string>{"a", "x"}));
  ASSERT_EQ(locking[0].of_table_locs.size(), 2u);
  EXPECT_EQ(locking[0].of_table_locs[1].position, 42u);
  EXPECT_TRUE(locking[0].nowait);
  EXPECT_FALSE(locking[0].skip_locked);
  EXPECT_EQ(locking[1].strength, Strength::kShare);
  EXPECT_EQ(locking[1].of_tables, (std::vector<std::string>{"c"}));
  EXPECT_TRUE(locking[1].skip_locked);
  EXPECT_FALSE(locking[1].nowait);
  EXPECT_EQ(locking[2].strength, Strength::kKeyShare);
  EXPECT_TRUE(locking[2].of_tables.empty());
  // Keywords as OF names.
  s = ParseOne("SELECT * FROM nowait, share FOR UPDATE OF nowait, share NOWAIT");
  EXPECT_EQ(s.select->locking[0].of_tables, (std::vector<std::string>{"nowait", "share"}));
  EXPECT_TRUE(s.select->locking[0].nowait);
}

TEST(ParserLocking, PositionsRelativeToOrderByLimitOffset) {
  // After LIMIT / OFFSET (the SQL standard place) and before them (PostgreSQL also accepts).
  for (const char* sql : {
           "SELECT a FROM t ORDER BY a LIMIT 1 OFFSET 2 FOR UPDATE",
           "SELECT a FROM t ORDER BY a OFFSET 2 LIMIT 1 FOR UPDATE",
           "SELECT a FROM t ORDER BY a FOR UPDATE LIMIT 1 OFFSET 2",
           "SELECT a FROM t ORDER BY a FOR UPDATE OFFSET 2 LIMIT 1",
       }) {
    ast::Statement s = ParseOne(sql);
    EXPECT_EQ(s.select->locking.size(), 1u) << sql;
    EXPECT_EQ(Dump(s.select->limit.get()), "1") << sql;
    EXPECT_EQ(Dump(s.select->offset.get()), "2") << sql;
    EXPECT_EQ(s.select->order_by.size(), 1u) << sql;
  }
  ast::Statement s = ParseOne("SELECT a FROM t LIMIT 1 FOR SHARE");
  EXPECT_EQ(s.select->locking[0].strength, Strength::kShare);
  s = ParseOne("SELECT a FROM t FOR UPDATE OFFSET 3");
  EXPECT_EQ(Dump(s.select->offset.get()), "3");
  s = ParseOne("SELECT 1 FOR UPDATE");  // no FROM: nothing to lock, as in PostgreSQL
  EXPECT_EQ(s.select->locking.size(), 1u);
  // FOR READ ONLY locks nothing.
  s = ParseOne("SELECT a FROM t ORDER BY a LIMIT 1 FOR READ ONLY");
  EXPECT_TRUE(s.select->locking.empty());
  EXPECT_NE(s.select->limit, nullptr);

  EXPECT_EQ(StateOf("SELECT a FROM t FOR UPDATE ORDER BY a"), "42601");
  EXPECT_EQ(StateOf("SELECT a FROM t LIMIT 1 FOR UPDATE OFFSET 1"), "42601");
  EXPECT_EQ(StateOf("SELECT a FROM t FOR UPDATE LIMIT 1 FOR SHARE"), "42601");
  EXPECT_EQ(StateOf("SELECT a FROM t FOR UPDATE WHERE a = 1"), "42601");
}

TEST(ParserLocking, SubqueriesAndParentheses) {
  ast::Statement s = ParseOne("SELECT * FROM (SELECT * FROM t FOR UPDATE) s");
  ASSERT_NE(s.select->from[0].subquery, nullptr);
  EXPECT_EQ(s.select->from[0].subquery->locking.size(), 1u);
  EXPECT_TRUE(s.select->locking.empty());
  // Clauses inside and outside parentheses merge, in written order.
  s = ParseOne("(SELECT * FROM t FOR UPDATE) FOR SHARE");
  ASSERT_EQ(s.select->locking.size(), 2u);
  EXPECT_EQ(s.select->locking[0].strength, Strength::kUpdate);
  EXPECT_EQ(s.select->locking[1].strength, Strength::kShare);
  s = ParseOne("WITH c AS (SELECT * FROM t FOR UPDATE) SELECT * FROM c FOR SHARE OF c");
  EXPECT_EQ(s.select->with[0].query->locking.size(), 1u);
  EXPECT_EQ(s.select->locking[0].of_tables, (std::vector<std::string>{"c"}));
  s = ParseOne("INSERT INTO u SELECT * FROM t FOR UPDATE");
  EXPECT_EQ(s.insert->select->locking.size(), 1u);
  s = ParseOne("SELECT a FROM t WHERE a IN (SELECT b FROM u FOR KEY SHARE) FOR UPDATE OF t");
  EXPECT_EQ(s.select->where->subquery->locking[0].strength, Strength::kKeyShare);
}

TEST(ParserLocking, Errors) {
  EXPECT_EQ(ErrorOf("SELECT 1 UNION SELECT 2 FOR UPDATE"),
            "0A000 FOR UPDATE is not allowed with UNION/INTERSECT/EXCEPT @25");
  EXPECT_EQ(ErrorOf("SELECT a FROM t INTERSECT SELECT a FROM u FOR NO KEY UPDATE"),
            "0A000 FOR NO KEY UPDATE is not allowed with UNION/INTERSECT/EXCEPT @43");
  EXPECT_EQ(ErrorOf("(SELECT a FROM t FOR SHARE) EXCEPT SELECT 1"),
            "0A000 FOR SHARE is not allowed with UNION/INTERSECT/EXCEPT @18");
  EXPECT_EQ(ErrorOf("SELECT 1 UNION ALL (SELECT a FROM t FOR KEY SHARE)"),
            "0A000 FOR KEY SHARE is not allowed with UNION/INTERSECT/EXCEPT @37");
  EXPECT_EQ(StateOf("SELECT 1 INTERSECT (SELECT 2 FOR UPDATE)"), "0A000");
  EXPECT_EQ(StateOf("(SELECT 1 FOR UPDATE) INTERSECT SELECT 2 UNION SELECT 3"), "0A000");
  EXPECT_EQ(StateOf("(SELECT 1 UNION SELECT 2) FOR UPDATE"), "0A000");
  EXPECT_EQ(StateOf("SELECT 1 UNION SELECT 2 ORDER BY 1 LIMIT 1 FOR SHARE"), "0A000");
  EXPECT_EQ(StateOf("SELECT * FROM (SELECT 1 UNION SELECT 2) s FOR UPDATE"), "ok");
  EXPECT_EQ(StateOf("SELECT 1 UNION SELECT 2 FOR READ ONLY"), "ok");

  EXPECT_EQ(ErrorOf("SELECT * FROM public.t FOR UPDATE OF public.t"),
            "42601 FOR UPDATE must specify unqualified relation names @38");
  EXPECT_EQ(StateOf("SELECT * FROM t FOR"), "42601");
  EXPECT_EQ(StateOf("SELECT * FROM t FOR UPDATE OF"), "42601");
  EXPECT_EQ(StateOf("SELECT * FROM t FOR NO UPDATE"), "42601");
  EXPECT_EQ(StateOf("SELECT * FROM t FOR KEY UPDATE"), "42601");
  EXPECT_EQ(StateOf("SELECT * FROM t FOR UPDATE SKIP"), "42601");
  EXPECT_EQ(StateOf("SELECT * FROM t FOR UPDATE NOWAIT SKIP LOCKED"), "42601");
  EXPECT_EQ(StateOf("SELECT * FROM t FOR READ"), "42601");
  EXPECT_EQ(StateOf("SELECT * FROM t FOR READ ONLY FOR UPDATE"), "42601");
  EXPECT_EQ(StateOf("SELECT * FROM t FOR UPDATE OF t,"), "42601");
}

// Every new keyword is non-reserved: a table or column name in CREATE TABLE, SELECT, INSERT,
// UPDATE, DELETE, aliases and qualified references.
TEST(ParserTransactionKeywords, UsableAsNames) {
  const char* words[] = {
      "abort",       "begin",     "chain",      "characteristics",
      "commit",      "committed", "deferrable", "isolation",
      "level",       "locked",    "no",         "nowait",
      "of",          "only",      "read",       "release",
      "repeatable",  "rollback",  "savepoint",  "serializable",
      "share",       "skip",      "start",      "transaction",
      "uncommitted", "work",      "write",
  };
  for (const char* w : words) {
    const std::string id(w);
    for (const std::string& sql : {
             "CREATE TABLE " + id + " (" + id + " int, b " + "text)",
             "SELECT " + id + ", " + id + "." + id + ", b " + id + ", b AS " + id + " FROM " + id +
                 " " + id + " WHERE " + id + " > 1 ORDER BY " + id,
             "SELECT " + id + " FROM t GROUP BY " + id + " HAVING count(" + id + ") > 0",
             "INSERT INTO " + id + " (" + id + ", b) VALUES (1, 'x')",
             "INSERT INTO t (" + id + ") SELECT " + id + " FROM " + id,
             "UPDATE " + id + " SET " + id + " = " + id + " + 1 WHERE " + id + " IS NULL",
             "DELETE FROM " + id + " WHERE " + id + " = 1",
             "SELECT * FROM t JOIN " + id + " ON t.a = " + id + "." + id,
             "SELECT * FROM " + id + " FOR UPDATE OF " + id,
             "SELECT " + id + "(1), " + id + "::int FROM t",
             "CREATE INDEX " + id + " ON " + id + " (" + id + ")",
             "DROP TABLE " + id,
         }) {
      auto r = Parse(sql);
      EXPECT_TRUE(r.ok()) << sql << " -> " << r.status().ToString();
    }
  }
}

TEST(ParserTransactionKeywords, NamesKeepTheirMeaning) {
  ast::Statement s = ParseOne(
      "CREATE TABLE work (level int, read text, start int, share int, "
      "no int, of int, transaction int, only int)");
  ASSERT_EQ(s.create_table->columns.size(), 8u);
  EXPECT_EQ(s.create_table->table, "work");
  EXPECT_EQ(s.create_table->columns[0].name, "level");
  EXPECT_EQ(s.create_table->columns[1].type.name, "text");
  EXPECT_EQ(s.create_table->columns[7].name, "only");

  s = ParseOne(
      "SELECT level, read AS r, start s, share, no, of, transaction FROM work "
      "WHERE level > 1 AND no = of ORDER BY start LIMIT 1");
  const ast::SelectStmt& q = *s.select;
  ASSERT_EQ(q.items.size(), 7u);
  EXPECT_EQ(Dump(q.items[0].expr.get()), "level");
  EXPECT_EQ(q.items[1].alias, "r");
  EXPECT_EQ(q.items[2].alias, "s");
  EXPECT_EQ(Dump(q.items[6].expr.get()), "transaction");
  EXPECT_EQ(Dump(q.where.get()), "(AND (> level 1) (= no of))");
  EXPECT_TRUE(q.locking.empty());

  s = ParseOne(
      "INSERT INTO work (level, read, start, share, no, of, transaction) "
      "VALUES (1, 'x', 2, 3, 4, 5, 6)");
  EXPECT_EQ(s.insert->columns, (std::vector<std::string>{"level", "read", "start", "share", "no",
                                                         "of", "transaction"}));
  // A table aliased "share" or "nowait" (not a locking clause: FOR is reserved).
  s = ParseOne("SELECT * FROM t share, u nowait");
  EXPECT_EQ(s.select->from[0].alias, "share");
  EXPECT_EQ(s.select->from[1].alias, "nowait");
  // Quoted keywords stay identifiers everywhere.
  s = ParseOne("SELECT \"BEGIN\" FROM \"COMMIT\"");
  EXPECT_EQ(s.select->items[0].expr->name, "BEGIN");
}

TEST(ParserTransactionFuzz, TokenSoupNeverCrashes) {
  const char* tokens[] = {
      "BEGIN",
      "COMMIT",
      "ROLLBACK",
      "START",
      "TRANSACTION",
      "WORK",
      "END",
      "ABORT",
      "SAVEPOINT",
      "RELEASE",
      "TO",
      "ISOLATION",
      "LEVEL",
      "READ",
      "WRITE",
      "ONLY",
      "COMMITTED",
      "UNCOMMITTED",
      "REPEATABLE",
      "SERIALIZABLE",
      "DEFERRABLE",
      "NOT",
      "AND",
      "NO",
      "CHAIN",
      "SET",
      "SESSION",
      "LOCAL",
      "CHARACTERISTICS",
      "AS",
      "SHOW",
      "SELECT",
      "FROM",
      "t",
      "FOR",
      "UPDATE",
      "SHARE",
      "KEY",
      "OF",
      "NOWAIT",
      "SKIP",
      "LOCKED",
      "UNION",
      "LIMIT",
      "1",
      ",",
      ";",
      "(",
      ")",
      "*",
      ".",
  };
  constexpr size_t kTokenCount = sizeof(tokens) / sizeof(tokens[0]);
  std::mt19937 rng(2024);
  for (int i = 0; i < 4000; ++i) {
    std::string sql;
    size_t n = rng() % 12;
    for (size_t k = 0; k < n; ++k) {
      sql += tokens[rng() % kTokenCount];
      sql += ' ';
    }
    auto r = Parse(sql);
    if (r.ok()) continue;
    const std::string& state = r.status().sqlstate();
    EXPECT_TRUE(state == "42601" || state == "0A000" || state == "54001") << state << ": " << sql;
    EXPECT_EQ(r.status().message().find("syntax error: "), std::string::npos) << sql;
  }
}

}  // namespace
}  // namespace meridian::parser::testing
