// LIKE and regular expressions with bounded time and stack (exec/pattern_match.h): LIKE checked
// against a plain backtracking reference on random inputs, the pathological shapes that crashed
// or stalled the daemon, PostgreSQL's ARE escapes, and cancellation inside one long match.
#include "execution/pattern_match.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace meridian::exec {
namespace {

// The obvious exponential matcher, fine for short inputs: the reference for LikeMatch.
bool ReferenceLike(const std::string& t, size_t ti, const std::string& p, size_t pi) {
  if (pi == p.size()) return ti == t.size();
  if (p[pi] == '%') {
    for (size_t k = ti; k <= t.size(); ++k) {
      if (ReferenceLike(t, k, p, pi + 1)) return true;
    }
    return false;
  }
  if (ti == t.size()) return false;
  if (p[pi] == '_') {
    size_t next = ti + 1;
    while (next < t.size() && (static_cast<unsigned char>(t[next]) & 0xC0) == 0x80) ++next;
    return ReferenceLike(t, next, p, pi + 1);
  }
  char c = p[pi];
  size_t step = 1;
  if (c == '\\' && pi + 1 < p.size()) {
    c = p[pi + 1];
    step = 2;
  }
  return t[ti] == c && ReferenceLike(t, ti + 1, p, pi + step);
}

bool Like(const std::string& t, const std::string& p) {
  Result<bool> r = LikeMatch(t, p, nullptr);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() && *r;
}

TEST(LikeTest, AgreesWithBacktrackingOnRandomInputs) {
  std::mt19937 rng(42);
  const std::string text_alphabet[] = {"a", "b", "é", "%", "_", "\\"};
  const std::string pattern_alphabet[] = {"a", "b", "é", "%", "_", "\\", "%", "_"};
  for (int i = 0; i < 20000; ++i) {
    std::string t, p;
    for (int n = rng() % 9; n > 0; --n) t += text_alphabet[rng() % 6];
    for (int n = rng() % 7; n > 0; --n) p += pattern_alphabet[rng() % 8];
    ASSERT_EQ(Like(t, p), ReferenceLike(t, 0, p, 0)) << "text '" << t << "' pattern '" << p << "'";
  }
}

TEST(LikeTest, ManyPercentsOnALongTextAreLinear) {
  const std::string text(100000, 'a');
  std::string pattern;
  for (int i = 0; i < 2000; ++i) pattern += "%a";
  EXPECT_FALSE(Like(text, pattern + "b"));
  EXPECT_TRUE(Like(text, pattern));
  EXPECT_TRUE(Like(text, pattern + "%"));
  EXPECT_FALSE(Like(text, pattern + "%b%"));
  EXPECT_TRUE(Like(text + "b", pattern + "_"));
  // Middle segments with '_' (searched without memmem) on a long text.
  std::string underscores;
  for (int i = 0; i < 200; ++i) underscores += "%a_a";
  EXPECT_TRUE(Like(text, underscores + "%"));
  EXPECT_FALSE(Like(text, underscores + "%b_%"));
}

TEST(LikeTest, ALongSearchStopsWhenTheStatementIsCancelled) {
  ExecControl ctl;
  ctl.Cancel();
  const std::string text(1 << 20, 'a');
  // Every position tries 300 bytes of a segment that fails only at its last '_b'.
  const std::string pattern = "%" + std::string(300, 'a') + "_b%";
  Result<bool> r = LikeMatch(text, pattern, &ctl);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().sqlstate(), sqlstate::kQueryCanceled);
  EXPECT_FALSE(*LikeMatch(text, pattern, nullptr));
}

bool Matches(const std::string& t, const std::string& re, bool icase = false) {
  Result<bool> r = RegexMatch(t, re, icase, nullptr);
  EXPECT_TRUE(r.ok()) << re << ": " << r.status().message();
  return r.ok() && *r;
}

TEST(RegexTest, PathologicalPatternsAnswerWithoutCrashing) {
  std::string ab;
  for (int i = 0; i < 200000; ++i) ab += "ab";
  EXPECT_TRUE(Matches(ab, "^(a|b)*$"));
  EXPECT_FALSE(Matches(ab + "c", "^(a|b)*$"));
  const std::string a30 = std::string(30, 'a') + "!";
  EXPECT_FALSE(Matches(a30, "^(a+)+$"));
  EXPECT_TRUE(Matches(std::string(30, 'a'), "^(a+)+$"));
  // A generated family of nested and alternated repetitions over runs of 'a' with no 'b'.
  const char* shapes[] = {"(a*)*b", "(a|a)*b", "(a|aa)+b", "^(a|a?)+b", "(.*a){12}b",
                          "^(\\w+\\s?)*b$", "(a+)+(a+)+b", "((a+)*)+b"};
  for (const char* shape : shapes) {
    for (int n : {14, 28, 5000}) {  // (.*a){12}b needs twelve a's
      EXPECT_FALSE(Matches(std::string(n, 'a'), shape)) << shape << " n=" << n;
      EXPECT_TRUE(Matches(std::string(n, 'a') + "b", shape)) << shape << " n=" << n;
    }
  }
}

TEST(RegexTest, ABackreferenceThatCannotBeBoundedIsAClearError) {
  Result<bool> r = RegexMatch(std::string(28, 'a') + "!", "^(a+)+\\1$", false, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().sqlstate(), sqlstate::kStatementTooComplex);
  EXPECT_TRUE(Matches("abab", "^(ab)\\1$"));
}

TEST(RegexTest, PostgresAreSyntax) {
  EXPECT_TRUE(Matches("hello world", "\\mworld"));
  EXPECT_FALSE(Matches("helloworld", "\\mworld"));
  EXPECT_TRUE(Matches("hello world", "hello\\M"));
  EXPECT_FALSE(Matches("helloworld", "hello\\M"));
  EXPECT_TRUE(Matches("a cat", "\\ycat\\y"));
  EXPECT_FALSE(Matches("concatenate", "\\ycat\\y"));
  EXPECT_TRUE(Matches("concatenate", "\\Ycat\\Y"));
  EXPECT_TRUE(Matches("a cat", "[[:<:]]cat[[:>:]]"));
  EXPECT_FALSE(Matches("cats", "[[:<:]]cat[[:>:]]"));
  EXPECT_TRUE(Matches("a.b", "***=a.b"));
  EXPECT_FALSE(Matches("axb", "***=a.b"));
  EXPECT_TRUE(Matches("ABC", "(?i)abc"));
  EXPECT_TRUE(Matches("ABC", "abc", true));
  EXPECT_FALSE(Matches("ABC", "abc"));
  EXPECT_TRUE(Matches("line1\nline2", "1.line"));  // '.' matches a newline in an ARE
  EXPECT_FALSE(Matches("abc\n", "abc$"));          // '$' is the end of the string only
  EXPECT_FALSE(Matches("abc\n", "abc\\Z"));
  EXPECT_TRUE(Matches("x\\y", "x\\By"));           // \B is a backslash in an ARE
  EXPECT_TRUE(Matches("é", "^.$"));                // one character, not one byte
  EXPECT_TRUE(Matches("é", "\\u00e9"));
  EXPECT_TRUE(Matches("a]b", "[]]"));
  EXPECT_TRUE(Matches("x1", "[[:digit:]]"));
}

TEST(RegexTest, InvalidPatternsAre2201B) {
  for (const char* bad : {"(", "a{2,1}", "[z-a]", "\\u12"}) {
    Result<bool> r = RegexMatch("x", bad, false, nullptr);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().sqlstate(), sqlstate::kInvalidRegularExpression) << bad;
  }
}

TEST(RegexTest, SubstringReturnsTheFirstGroupOrTheMatch) {
  auto sub = [](const std::string& t, const std::string& re) {
    Result<std::optional<std::string>> r = RegexSubstring(t, re, nullptr);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() && r->has_value() ? **r : std::string("<null>");
  };
  EXPECT_EQ(sub("foobar", "o.b"), "oob");
  EXPECT_EQ(sub("foobar", "o(.)b"), "o");
  EXPECT_EQ(sub("foobar", "x(.)?"), "<null>");
  EXPECT_EQ(sub("foobar", "f(x)?"), "<null>");
  // No subexpression: the DFA answers when backtracking gives up.
  EXPECT_EQ(sub(std::string(30, 'a') + "!ab", "(?:a+)+b"), "ab");
  Result<std::optional<std::string>> r = RegexSubstring(std::string(30, 'a') + "!ab", "(a+)+b", nullptr);
  ASSERT_FALSE(r.ok());  // the DFA reports no subexpressions
  EXPECT_EQ(r.status().sqlstate(), sqlstate::kStatementTooComplex);
}

}  // namespace
}  // namespace meridian::exec
