// Window clauses: OVER (PARTITION BY ... ORDER BY ... frame), OVER w, OVER (w ...), the WINDOW
// clause, frame bounds and their 42P20 order errors, the new words as identifiers, and an
// aggregate's FILTER before OVER.

#include "parser_test_util.h"

namespace meridian::parser::testing {
namespace {

using Bound = ast::WindowFrame::Bound;
using Mode = ast::WindowFrame::Mode;

const ast::Expr& FirstItem(const ast::Statement& s) { return *s.select->items[0].expr; }

TEST(ParserWindow, OverWithPartitionOrderAndFrame) {
  ast::Statement s = ParseOne(
      "SELECT sum(v) OVER (PARTITION BY g, h ORDER BY id DESC NULLS LAST ROWS BETWEEN 2 "
      "PRECEDING AND 1 FOLLOWING) FROM t");
  const ast::Expr& e = FirstItem(s);
  ASSERT_EQ(e.kind, ast::ExprKind::kFunction);
  ASSERT_NE(e.over, nullptr);
  EXPECT_EQ(Dump(&e), "sum( v)");
  const ast::WindowSpec& w = *e.over;
  ASSERT_EQ(w.partition_by.size(), 2u);
  EXPECT_EQ(Dump(w.partition_by[1].get()), "h");
  ASSERT_EQ(w.order_by.size(), 1u);
  EXPECT_TRUE(w.order_by[0].descending);
  EXPECT_EQ(w.order_by[0].nulls_first, std::optional<bool>(false));
  ASSERT_NE(w.frame, nullptr);
  EXPECT_EQ(w.frame->mode, Mode::kRows);
  EXPECT_EQ(w.frame->start, Bound::kPreceding);
  EXPECT_EQ(Dump(w.frame->start_offset.get()), "2");
  EXPECT_EQ(w.frame->end, Bound::kFollowing);
  EXPECT_EQ(Dump(w.frame->end_offset.get()), "1");
  EXPECT_EQ(w.loc.position, 20u);  // the parenthesis after OVER
}

TEST(ParserWindow, EmptyOverStarAndDefaultFrame) {
  ast::Statement s = ParseOne("SELECT count(*) OVER (), row_number() OVER () FROM t");
  const ast::Expr& count = FirstItem(s);
  EXPECT_TRUE(count.star);
  ASSERT_NE(count.over, nullptr);
  EXPECT_TRUE(count.over->partition_by.empty());
  EXPECT_EQ(count.over->frame, nullptr);
  EXPECT_NE(s.select->items[1].expr->over, nullptr);
  // Without OVER the call has no window.
  EXPECT_EQ(FirstItem(ParseOne("SELECT count(*) FROM t")).over, nullptr);
}

TEST(ParserWindow, FilterBeforeOver) {
  // PostgreSQL's order: agg(...) FILTER (WHERE ...) OVER (...); also on count(*).
  ast::Statement s = ParseOne(
      "SELECT count(*) FILTER (WHERE x > 0) OVER (PARTITION BY g), "
      "sum(v) FILTER (WHERE v < 5) OVER w, array_agg(v ORDER BY v) OVER () FROM t "
      "WINDOW w AS (ORDER BY id)");
  const ast::Expr& count = FirstItem(s);
  EXPECT_TRUE(count.star);
  ASSERT_NE(count.filter, nullptr);
  EXPECT_EQ(Dump(count.filter.get()), "(> x 0)");
  ASSERT_NE(count.over, nullptr);
  ASSERT_EQ(count.over->partition_by.size(), 1u);
  const ast::Expr& sum = *s.select->items[1].expr;
  ASSERT_NE(sum.filter, nullptr);
  ASSERT_NE(sum.over, nullptr);
  EXPECT_EQ(sum.over->existing, "w");
  EXPECT_TRUE(sum.over->reference_only);
  const ast::Expr& agg = *s.select->items[2].expr;
  EXPECT_EQ(agg.agg_order.size(), 1u);  // parsed; the binder refuses it (0A000)
  EXPECT_NE(agg.over, nullptr);
  // OVER before FILTER is not PostgreSQL's syntax.
  auto r = Parse("SELECT count(*) OVER () FILTER (WHERE x > 0) FROM t");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().sqlstate(), "42601");
}

TEST(ParserWindow, FrameForms) {
  struct Case {
    const char* frame;
    Mode mode;
    Bound start, end;
    bool exclusion;
  };
  const Case cases[] = {
      {"ROWS UNBOUNDED PRECEDING", Mode::kRows, Bound::kUnboundedPreceding, Bound::kCurrentRow,
       false},
      {"RANGE CURRENT ROW", Mode::kRange, Bound::kCurrentRow, Bound::kCurrentRow, false},
      {"RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING", Mode::kRange,
       Bound::kUnboundedPreceding, Bound::kUnboundedFollowing, false},
      {"ROWS BETWEEN CURRENT ROW AND 3 FOLLOWING", Mode::kRows, Bound::kCurrentRow,
       Bound::kFollowing, false},
      {"GROUPS BETWEEN 1 PRECEDING AND 1 PRECEDING EXCLUDE TIES", Mode::kGroups,
       Bound::kPreceding, Bound::kPreceding, true},
      {"ROWS 1 PRECEDING EXCLUDE NO OTHERS", Mode::kRows, Bound::kPreceding, Bound::kCurrentRow,
       false},
      {"ROWS 1 PRECEDING EXCLUDE CURRENT ROW", Mode::kRows, Bound::kPreceding,
       Bound::kCurrentRow, true},
  };
  for (const Case& c : cases) {
    ast::Statement s =
        ParseOne(std::string("SELECT sum(v) OVER (ORDER BY id ") + c.frame + ") FROM t");
    const ast::WindowFrame* f = FirstItem(s).over->frame.get();
    ASSERT_NE(f, nullptr) << c.frame;
    EXPECT_EQ(f->mode, c.mode) << c.frame;
    EXPECT_EQ(f->start, c.start) << c.frame;
    EXPECT_EQ(f->end, c.end) << c.frame;
    EXPECT_EQ(f->exclusion, c.exclusion) << c.frame;
  }
}

TEST(ParserWindow, NamedWindows) {
  ast::Statement s = ParseOne(
      "SELECT sum(v) OVER w, rank() OVER (w ORDER BY v) FROM t WINDOW w AS (PARTITION BY g), "
      "w2 AS (w ROWS UNBOUNDED PRECEDING) ORDER BY 1");
  const ast::SelectStmt& sel = *s.select;
  ASSERT_EQ(sel.windows.size(), 2u);
  EXPECT_EQ(sel.windows[0].name, "w");
  EXPECT_EQ(sel.windows[0].partition_by.size(), 1u);
  EXPECT_EQ(sel.windows[1].name, "w2");
  EXPECT_EQ(sel.windows[1].existing, "w");
  EXPECT_NE(sel.windows[1].frame, nullptr);
  const ast::WindowSpec& ref = *sel.items[0].expr->over;
  EXPECT_TRUE(ref.reference_only);
  EXPECT_EQ(ref.existing, "w");
  const ast::WindowSpec& copy = *sel.items[1].expr->over;
  EXPECT_FALSE(copy.reference_only);
  EXPECT_EQ(copy.existing, "w");
  EXPECT_EQ(copy.order_by.size(), 1u);
  EXPECT_EQ(sel.order_by.size(), 1u);
}

TEST(ParserWindow, NewWordsStayIdentifiers) {
  // Only WINDOW is reserved (as in PostgreSQL); the frame words name columns and tables.
  ast::Statement s = ParseOne(
      "SELECT rows, range, partition, over, current, row, unbounded, preceding, following, "
      "groups, exclude, ties, others FROM over");
  EXPECT_EQ(s.select->items.size(), 13u);
  EXPECT_EQ(s.select->from[0].name, "over");
  EXPECT_EQ(Dump(&FirstItem(ParseOne("SELECT count(*) over FROM t"))), "count(*)");
  EXPECT_EQ(ParseOne("SELECT count(*) over FROM t").select->items[0].alias, "over");
  // `unbounded preceding` is the bound, never an offset read from a column named unbounded.
  ast::Statement u = ParseOne("SELECT sum(v) OVER (ROWS unbounded PRECEDING) FROM t");
  EXPECT_EQ(FirstItem(u).over->frame->start, Bound::kUnboundedPreceding);
  EXPECT_EQ(FirstItem(u).over->frame->start_offset, nullptr);
  EXPECT_FALSE(Parse("SELECT 1 AS x FROM window").ok());
}

TEST(ParserWindow, FrameOrderErrors) {
  struct Case {
    const char* sql;
    const char* message;
    uint32_t position;
  };
  const Case cases[] = {
      {"SELECT sum(v) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t",
       "frame start cannot be UNBOUNDED FOLLOWING", 34},
      {"SELECT sum(v) OVER (ROWS UNBOUNDED FOLLOWING) FROM t",
       "frame start cannot be UNBOUNDED FOLLOWING", 26},
      {"SELECT sum(v) OVER (ROWS BETWEEN CURRENT ROW AND UNBOUNDED PRECEDING) FROM t",
       "frame end cannot be UNBOUNDED PRECEDING", 50},
      {"SELECT sum(v) OVER (ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM t",
       "frame starting from current row cannot have preceding rows", 50},
      {"SELECT sum(v) OVER (ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) FROM t",
       "frame starting from following row cannot have preceding rows", 50},
      {"SELECT sum(v) OVER (ROWS 1 FOLLOWING) FROM t",
       "frame starting from following row cannot end with current row", 26},
  };
  for (const Case& c : cases) {
    auto r = Parse(c.sql);
    ASSERT_FALSE(r.ok()) << c.sql;
    EXPECT_EQ(r.status().sqlstate(), "42P20") << c.sql;
    EXPECT_EQ(r.status().message(), c.message) << c.sql;
    EXPECT_EQ(r.status().position(), c.position) << c.sql;
  }
  for (const char* sql : {"SELECT sum(v) OVER (ORDER BY id ROWS) FROM t",
                          "SELECT sum(v) OVER (ROWS 1) FROM t",
                          "SELECT sum(v) OVER (PARTITION g) FROM t"}) {
    auto r = Parse(sql);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_EQ(r.status().sqlstate(), "42601") << sql;
  }
}

}  // namespace
}  // namespace meridian::parser::testing
