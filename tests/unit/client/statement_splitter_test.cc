// Tests of the shell's statement splitter: quotes, comments, backslash commands, line tracking.
#include "shell/statement_splitter.h"

#include <gtest/gtest.h>

namespace meridian::shell {
namespace {

std::vector<std::string> Texts(const std::vector<InputItem>& items) {
  std::vector<std::string> out;
  for (const auto& i : items) {
    out.push_back((i.kind == InputItem::Kind::kMeta ? "META:" : "") + i.text);
  }
  return out;
}

TEST(StatementSplitterTest, SplitsAtSemicolons) {
  EXPECT_EQ(Texts(SplitInput("select 1; select 2;\nselect\n 3;")),
            (std::vector<std::string>{"select 1;", "select 2;", "select\n 3;"}));
}

TEST(StatementSplitterTest, IgnoresSemicolonsInQuotesAndComments) {
  EXPECT_EQ(Texts(SplitInput("select 'a;b', \"c;d\" -- e;f\n from t; /* x; /* nested; */ y; */ "
                             "select 'it''s;';")),
            (std::vector<std::string>{"select 'a;b', \"c;d\" -- e;f\n from t;",
                                      "/* x; /* nested; */ y; */ select 'it''s;';"}));
  EXPECT_EQ(Texts(SplitInput("select E'a\\';b';")),
            (std::vector<std::string>{"select E'a\\';b';"}));
  // Without E, a backslash is an ordinary character.
  EXPECT_EQ(Texts(SplitInput("select 'a\\'; select 2;")),
            (std::vector<std::string>{"select 'a\\';", "select 2;"}));
}

TEST(StatementSplitterTest, MultiLineQuoteKeepsNewline) {
  EXPECT_EQ(Texts(SplitInput("select 'a\nb';")), (std::vector<std::string>{"select 'a\nb';"}));
}

TEST(StatementSplitterTest, DropsEmptyStatementsAndCommentOnlyLines) {
  EXPECT_EQ(Texts(SplitInput("-- header\n\n;;\n  select 1;  -- trailing\n")),
            (std::vector<std::string>{"select 1;"}));
}

TEST(StatementSplitterTest, UnterminatedLastStatementAtEof) {
  EXPECT_EQ(Texts(SplitInput("select 1;\nselect 2")),
            (std::vector<std::string>{"select 1;", "select 2"}));
  EXPECT_TRUE(SplitInput("-- only a comment").empty());
}

TEST(StatementSplitterTest, BackslashCommandsEndAtEndOfLine) {
  EXPECT_EQ(Texts(SplitInput("\\timing on\nselect 1;\n  \\d t \n\\q")),
            (std::vector<std::string>{"META:\\timing on", "select 1;", "META:\\d t", "META:\\q"}));
  // A backslash inside a statement's quotes is not a command.
  EXPECT_EQ(Texts(SplitInput("select '\n\\q';")), (std::vector<std::string>{"select '\n\\q';"}));
  // \g sends the pending statement.
  EXPECT_EQ(Texts(SplitInput("select 1\n\\g")), (std::vector<std::string>{"select 1"}));
}

TEST(StatementSplitterTest, PendingStateForContinuationPrompt) {
  StatementSplitter s;
  EXPECT_FALSE(s.HasPending());
  EXPECT_TRUE(s.FeedLine("select").empty());
  EXPECT_TRUE(s.HasPending());
  auto items = s.FeedLine("1;");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].text, "select\n1;");
  EXPECT_EQ(items[0].start_line, 1);
  EXPECT_FALSE(s.HasPending());
  EXPECT_TRUE(s.FeedLine("select '").empty());
  EXPECT_TRUE(s.HasPending());
  s.Reset();
  EXPECT_FALSE(s.HasPending());
  EXPECT_TRUE(s.FeedLine("/* open").empty());
  EXPECT_TRUE(s.HasPending());
}

TEST(StatementSplitterTest, StartLine) {
  auto items = SplitInput("\n-- c\nselect 1;\n\nselect\n2;");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].start_line, 3);
  EXPECT_EQ(items[1].start_line, 5);
}

}  // namespace
}  // namespace meridian::shell
