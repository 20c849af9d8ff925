// Robustness: random byte strings and random token soups must come back as a result or as a
// 42601/54001/22021 status, never as a crash or an exception.

#include <random>
#include <thread>

#include "parser_test_util.h"

namespace meridian::parser::testing {
namespace {

void ExpectOkOrKnownError(const std::string& sql) {
  auto r = Parse(sql);
  if (r.ok()) return;
  const std::string& state = r.status().sqlstate();
  EXPECT_TRUE(state == "42601" || state == "54001" || state == "22021" || state == "42704" ||
              state == "42P02" || state == "42P16" || state == "22023" || state == "54000")
      << r.status().ToString() << " for: " << sql;
  EXPECT_EQ(r.status().message().find("syntax error: "), std::string::npos)
      << "unexpected internal failure: " << r.status().message();
}

TEST(ParserFuzz, RandomBytes) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 3000; ++i) {
    std::string sql(rng() % 64, '\0');
    for (char& c : sql) c = static_cast<char>(rng() % 256);
    ExpectOkOrKnownError(sql);
  }
}

TEST(ParserFuzz, RandomPrintableAscii) {
  std::mt19937 rng(777);
  for (int i = 0; i < 3000; ++i) {
    std::string sql(rng() % 64, ' ');
    for (char& c : sql) c = static_cast<char>(32 + rng() % 95);
    ExpectOkOrKnownError(sql);
  }
}

TEST(ParserFuzz, RandomTokenSoup) {
  const char* tokens[] = {
      "SELECT",  "FROM",   "WHERE",     "INSERT",   "INTO",  "VALUES",  "UPDATE",  "SET",
      "DELETE",  "CREATE", "TABLE",     "DROP",     "IF",    "NOT",     "EXISTS",  "NULL",
      "AND",     "OR",     "IN",        "BETWEEN",  "LIKE",  "IS",      "CASE",    "WHEN",
      "THEN",    "ELSE",   "END",       "CAST",     "AS",    "ORDER",   "BY",      "GROUP",
      "HAVING",  "LIMIT",  "OFFSET",    "DISTINCT", "ALL",   "DEFAULT", "PRIMARY", "KEY",
      "UNIQUE",  "ASC",    "DESC",      "NULLS",    "FIRST", "LAST",    "INT",     "TEXT",
      "VARCHAR", "DOUBLE", "PRECISION", "(",        ")",     ",",       ";",       ".",
      "*",       "+",      "-",         "/",        "%",     "=",       "<>",      "<",
      "<=",      ">",      ">=",        "||",       "::",    "a",       "t1",      "\"Q\"",
      "'s'",     "1",      "2.5",       "$1",       "count", "abs",     "--c\n",   "/*x*/",
      "'",       "\"",     "/*",
  };
  constexpr size_t kTokenCount = sizeof(tokens) / sizeof(tokens[0]);
  std::mt19937 rng(4242);
  for (int i = 0; i < 4000; ++i) {
    std::string sql;
    size_t n = rng() % 30;
    for (size_t k = 0; k < n; ++k) {
      sql += tokens[rng() % kTokenCount];
      sql += ' ';
    }
    ExpectOkOrKnownError(sql);
  }
}

TEST(ParserFuzz, MutatedValidStatements) {
  const std::string seeds[] = {
      "SELECT a, b FROM t1 WHERE a BETWEEN 1 AND 2 ORDER BY 1 DESC LIMIT 3",
      "INSERT INTO t1(a,b) VALUES (1, 'x'), (DEFAULT, -2.5)",
      "CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(5) NOT NULL DEFAULT 'q')",
      "SELECT CASE WHEN a < b THEN (SELECT count(*) FROM t WHERE x IN (1,2)) END FROM t",
  };
  std::mt19937 rng(99);
  for (int i = 0; i < 3000; ++i) {
    std::string sql = seeds[rng() % 4];
    int edits = 1 + rng() % 4;
    for (int e = 0; e < edits && !sql.empty(); ++e) {
      size_t pos = rng() % sql.size();
      switch (rng() % 3) {
        case 0:
          sql.erase(pos, 1 + rng() % 3);
          break;
        case 1:
          sql.insert(pos, 1, static_cast<char>(32 + rng() % 95));
          break;
        default:
          sql[pos] = static_cast<char>(32 + rng() % 95);
          break;
      }
    }
    ExpectOkOrKnownError(sql);
  }
}

TEST(ParserFuzz, ConcurrentParsesAgree) {
  const std::string sql =
      "SELECT a, CASE WHEN b < 3 THEN 'x' ELSE c || 'y' END FROM t1 WHERE a IN (1, 2) "
      "AND EXISTS (SELECT 1 FROM t2 WHERE t2.k = t1.k) ORDER BY 1 DESC LIMIT 5";
  const std::string expected = Dump(ParseOne(sql).select->items[1].expr.get());
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        auto r = Parse(sql);
        if (!r.ok() || Dump((*r)[0].select->items[1].expr.get()) != expected) ++mismatches[t];
        auto bad = Parse("SELECT FROM WHERE");
        if (bad.ok()) ++mismatches[t];
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

}  // namespace
}  // namespace meridian::parser::testing
