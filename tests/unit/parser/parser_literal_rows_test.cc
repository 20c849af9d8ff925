// The bulk INSERT shortcut (parser/src/literal_rows.*): a multi-row INSERT ... VALUES whose rows
// after the first are literals must give the AST ANTLR alone gives (Parse vs
// ParseWithoutShortcuts): the same rows in the same order, literal kinds and texts, locations,
// statement texts, and the same error for the same broken request.

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "meridian/parser/parser.h"
#include "parser_test_util.h"

namespace meridian::parser {
namespace {

using testing::Dump;

std::string Where(const ast::Location& loc) {
  return "@" + std::to_string(loc.position) + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.column);
}

// Everything a statement list says that the shortcut could change.
std::string Describe(const Result<std::vector<ast::Statement>>& r) {
  if (!r.ok()) {
    return "error " + r.status().sqlstate() + " " + r.status().message() + " at " +
           std::to_string(r.status().position());
  }
  std::string out;
  for (const ast::Statement& s : r.value()) {
    out +=
        "[" + std::to_string(static_cast<int>(s.kind)) + " " + Where(s.loc) + " " + s.text + "]\n";
    if (s.insert == nullptr) continue;
    const ast::InsertStmt& ins = *s.insert;
    out += ins.table + Where(ins.table_loc) + " alias=" + ins.alias +
           " select=" + (ins.select ? "yes" : "no") +
           " conflict=" + (ins.on_conflict ? "yes" : "no") +
           " returning=" + std::to_string(ins.returning.size()) + "\n";
    for (const std::string& c : ins.columns) out += " col " + c;
    for (const auto& row : ins.values) {
      out += "\n(";
      for (const ast::ExprPtr& e : row) {
        out += Dump(e.get());
        if (e != nullptr) out += Where(e->loc);
        out += ", ";
      }
      out += ")";
    }
    out += "\n";
  }
  return out;
}

void ExpectSameAsAntlr(const std::string& sql) {
  SCOPED_TRACE(sql);
  const std::string expected = Describe(ParseWithoutShortcuts(sql));
  EXPECT_EQ(Describe(Parse(sql)), expected);
}

TEST(ParserLiteralRows, SameAstAsAntlr) {
  const char* cases[] = {
      "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (-3, NULL), (4.5, TRUE), (.5e3, false)",
      "INSERT INTO t VALUES (1), (- 7), (DEFAULT), (1e5), (1.e-5), (12E+3), (007), (-.25)",
      "insert into T (a, \"B c\") values ('x', 'it''s'), ('', ''''), ('ünï\ncode', 'é')",
      "INSERT INTO s.t AS x (a) VALUES (1), (2) ON CONFLICT (a) DO UPDATE SET a = x.a + 1",
      "INSERT INTO \"my \"\"t\" VALUES (1)\n,\n(2)\n, ( 3 ) RETURNING *, a",
      "INSERT INTO t VALUES (1) -- one\n, (2) /* two /* nested */ */, (3)",
      "INSERT INTO t VALUES (1 + 2, lower('X)')), (3, 'y'), (4, 'z'); SELECT 1",
      "INSERT INTO t VALUES (1), (2), (3 + 1), (4), (5)",
      "INSERT INTO t VALUES (1), (2), ('a'::text), (4)",
      "INSERT INTO t VALUES (1), (2), (3) UNION SELECT 4",
      "INSERT INTO t VALUES (1), (2) ORDER BY 1 LIMIT 1",
      "INSERT INTO t VALUES (1, 2), (3), (4, 5, 6)",
      "INSERT INTO t VALUES (E'a\\'b'), (2), (3)",
      "INSERT INTO t VALUES (1), (E'a\\'b'), (3)",
      "INSERT INTO t VALUES ($1), ($2), (3)",
      "INSERT INTO t VALUES (1), (2), ($$x$$)",
      "INSERT INTO t VALUES (1), (2), (3",
      "INSERT INTO t VALUES (1), (2), ('open",
      "INSERT INTO t VALUES (1), (2) garbage",
      "INSERT INTO t VALUES (1), (2), (3x)",
      "INSERT INTO t VALUES (1), (2), (1.2.3)",
      "INSERT INTO t VALUES (1), (2), (- - 3)",
      "INSERT INTO t VALUES (1), (2), (+3)",
      "INSERT INTO t VALUES (1), (2), (nullx)",
      "INSERT INTO t VALUES (1), (2), ('a' 'b')",
      "INSERT INTO t OVERRIDING SYSTEM VALUE VALUES (1), (2)",
      "INSERT INTO t DEFAULT VALUES",
      "INSERT INTO t SELECT 1",
      "INSERT INTO t VALUES (1), (2),",
      "INSERT INTO t VALUES (1), ()",
      "  \n\tINSERT INTO t VALUES\n(1),\n  (2),\n    ('x\ny'),\n(4)",
  };
  for (const char* sql : cases) ExpectSameAsAntlr(sql);
}

TEST(ParserLiteralRows, RowsReachTheStatement) {
  Result<std::vector<ast::Statement>> r = Parse("INSERT INTO t VALUES (1), (2), (3 + 1), (4)");
  ASSERT_TRUE(r.ok());
  const ast::InsertStmt& ins = *r.value()[0].insert;
  ASSERT_EQ(ins.values.size(), 4u);
  EXPECT_EQ(Dump(ins.values[1][0].get()), "2");
  EXPECT_EQ(Dump(ins.values[2][0].get()), "(+ 3 1)");
  EXPECT_EQ(Dump(ins.values[3][0].get()), "4");
}

// Generated bulk loads: many rows of random literals, spacing and line breaks.
TEST(ParserLiteralRows, GeneratedBulkInserts) {
  std::mt19937 rng(20261128);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const char* spaces[] = {"", " ", "  ", "\n", "\t", " \n "};
  for (int round = 0; round < 40; ++round) {
    std::string sql = "INSERT INTO t (a, b, c) VALUES ";
    const int rows = 1 + pick(300);
    for (int r = 0; r < rows; ++r) {
      if (r > 0) sql += std::string(spaces[pick(6)]) + "," + spaces[pick(6)];
      sql += "(";
      for (int c = 0; c < 3; ++c) {
        if (c > 0) sql += std::string(",") + spaces[pick(6)];
        switch (pick(8)) {
          case 0:
            sql += std::to_string(pick(100000));
            break;
          case 1:
            sql += "-" + std::string(spaces[pick(3)]) + std::to_string(pick(1000));
            break;
          case 2:
            sql += std::to_string(pick(1000)) + "." + std::to_string(pick(100));
            break;
          case 3:
            sql += "'v" + std::to_string(pick(50)) + (pick(4) == 0 ? "''q" : "") + "'";
            break;
          case 4:
            sql += pick(2) ? "NULL" : "null";
            break;
          case 5:
            sql += pick(2) ? "TRUE" : "false";
            break;
          case 6:
            sql += "DEFAULT";
            break;
          default:
            sql += pick(20) == 0 ? "now()" : "'ü" + std::to_string(pick(9)) + "'";
            break;
        }
      }
      sql += std::string(spaces[pick(6)]) + ")";
    }
    if (pick(3) == 0) sql += " RETURNING a";
    if (pick(3) == 0) sql += ";";
    ExpectSameAsAntlr(sql);
  }
}

}  // namespace
}  // namespace meridian::parser
