// point and box text forms and geometry (meridian/geometry.h): PostgreSQL 15's accepted
// spellings and errors, box corners sorted, lossless round trips of random coordinates through
// the output form (also through PointOf/BoxOf's fast path), the EPSILON fuzz and distances.
#include "meridian/geometry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace meridian::geo {
namespace {

std::string P(std::string_view text) {
  Result<Point> p = ParsePoint(text);
  return p.ok() ? FormatPoint(*p) : "ERROR " + p.status().sqlstate();
}

std::string B(std::string_view text) {
  Result<Box> b = ParseBox(text);
  return b.ok() ? FormatBox(*b) : "ERROR " + b.status().sqlstate();
}

TEST(GeometryTest, PointInputAndOutput) {
  EXPECT_EQ(P("(1,2)"), "(1,2)");
  EXPECT_EQ(P("1,2"), "(1,2)");
  EXPECT_EQ(P("  ( 1.5 , -2e3 )  "), "(1.5,-2000)");
  EXPECT_EQ(P("(1e20,0.1)"), "(1e+20,0.1)");
  EXPECT_EQ(P("(Infinity,-inf)"), "(Infinity,-Infinity)");
  EXPECT_EQ(P("(nan,-0)"), "(NaN,-0)");
  for (const char* bad : {"", "x", "(1,2", "1,2)", "((1,2))", "(1;2)", "(1,2) x", "(1,,2)"}) {
    EXPECT_EQ(P(bad), "ERROR 22P02") << bad;
  }
  EXPECT_EQ(P("(1e999,1)"), "ERROR 22003");
}

TEST(GeometryTest, BoxInputSortsCorners) {
  EXPECT_EQ(B("((0,0),(1,1))"), "(1,1),(0,0)");
  EXPECT_EQ(B("(0,0),(1,1)"), "(1,1),(0,0)");
  EXPECT_EQ(B("0,0,1,1"), "(1,1),(0,0)");
  EXPECT_EQ(B("(3,0),(1,5)"), "(3,5),(1,0)");
  EXPECT_EQ(B(" ( ( 3 , 4 ) , ( 1 , 2 ) ) "), "(3,4),(1,2)");
  for (const char* bad : {"x", "((3,4))", "(1,2),(3,4),(5,6)", "((1,2),(3,4)", "(1,2),(3,4))"}) {
    EXPECT_EQ(B(bad), "ERROR 22P02") << bad;
  }
}

TEST(GeometryTest, OutputFormRoundTripsExactly) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    double d[4];
    for (double& x : d) {
      const uint64_t bits = rng();
      std::memcpy(&x, &bits, sizeof x);
      if (std::isnan(x)) x = static_cast<double>(rng() % 1000) / 7.0;
    }
    const Point p{d[0], d[1]};
    const std::string text = FormatPoint(p);
    const Point q = PointOf(text);
    ASSERT_EQ(std::memcmp(&p, &q, sizeof p), 0) << text;
    const Box b = MakeBox({d[0], d[1]}, {d[2], d[3]});
    const std::string btext = FormatBox(b);
    const Box c = BoxOf(btext);
    ASSERT_EQ(std::memcmp(&b, &c, sizeof b), 0) << btext;
    ASSERT_EQ(B(btext), btext);
  }
}

TEST(GeometryTest, ParseCacheGivesEachTextItsOwnValue) {
  // Far more texts than the cache's slots, visited in rounds that interleave them (so slots
  // are shared and overwritten), repeated texts, other spellings, a text longer than the cache
  // keeps, and a malformed one: PointOf/BoxOf must always give what a fresh parse gives.
  std::mt19937_64 rng(7);
  std::vector<std::string> points, boxes;
  for (int i = 0; i < 3000; ++i) {
    const double x = static_cast<double>(rng() % 100000) / 7.0;
    const double y = -static_cast<double>(rng() % 100000) / 3.0;
    points.push_back(FormatPoint({x, y}));
    boxes.push_back(FormatBox(MakeBox({x, y}, {y, x + 1})));
  }
  points.push_back(" ( 1.5 , 2 ) ");
  boxes.push_back("((2,3),(0,1))");
  points.push_back("(" + std::string(200, '1') + ",2)");
  boxes.push_back("(3," + std::string(200, '4') + "),(1,2)");
  points.push_back("(1,x)");
  boxes.push_back("(1,2),(3,x)");
  for (int round = 0; round < 3; ++round) {
    for (size_t k = 0; k < points.size(); ++k) {
      const size_t i = round == 1 ? points.size() - 1 - k : (k * 7919) % points.size();
      Result<Point> want_p = ParsePoint(points[i]);
      const Point p = want_p.ok() ? *want_p : Point{};
      const Point got_p = PointOf(points[i]);
      ASSERT_EQ(std::memcmp(&p, &got_p, sizeof p), 0) << points[i];
      Result<Box> want_b = ParseBox(boxes[i]);
      const Box b = want_b.ok() ? *want_b : Box{};
      const Box got_b = BoxOf(boxes[i]);
      ASSERT_EQ(std::memcmp(&b, &got_b, sizeof b), 0) << boxes[i];
      // The same text twice in a row (a hit) and a point's text read as a box (another cache).
      const Box again = BoxOf(boxes[i]);
      ASSERT_EQ(std::memcmp(&b, &again, sizeof b), 0) << boxes[i];
    }
  }
  EXPECT_EQ(BoxOf("(1,2)").high.x, 0.0);  // not a box: zeros, also when asked again
  EXPECT_EQ(BoxOf("(1,2)").high.x, 0.0);
  EXPECT_EQ(PointOf("(1,2)").y, 2.0);
}

TEST(GeometryTest, FuzzAndDistances) {
  const Box unit = MakeBox({0, 0}, {1, 1});
  EXPECT_TRUE(BoxOverlaps(unit, MakeBox({1.0000005, 0}, {2, 1})));  // within EPSILON
  EXPECT_FALSE(BoxOverlaps(unit, MakeBox({1.000002, 0}, {2, 1})));
  EXPECT_TRUE(BoxContains(unit, MakeBox({-0.0000005, 0}, {1, 1})));
  EXPECT_TRUE(BoxContainsPoint(unit, {1, 1}));
  EXPECT_FALSE(BoxContainsPoint(unit, {1.0000001, 1}));  // exact, no fuzz
  EXPECT_TRUE(BoxSame(unit, MakeBox({1, 1}, {0.0000001, 0})));
  EXPECT_TRUE(PointSame({1, 2}, {1.0000009, 2}));
  EXPECT_EQ(PointDistance({0, 0}, {3, 4}), 5.0);
  EXPECT_EQ(PointBoxDistance({0, 0}, MakeBox({3, 4}, {5, 5})), 5.0);
  EXPECT_EQ(PointBoxDistance({0.5, 0.5}, unit), 0.0);
  EXPECT_EQ(PointBoxDistance({0.5, 3}, unit), 2.0);
  EXPECT_EQ(BoxDistance(unit, MakeBox({3, 4}, {4, 5})), 5.0);
  EXPECT_EQ(CompareAreas(unit, MakeBox({5, 5}, {6, 6})), 0);
  EXPECT_EQ(CompareAreas(unit, MakeBox({0, 0}, {2, 1})), -1);
  EXPECT_EQ(Hypot(3, 4), 5.0);
  EXPECT_TRUE(std::isinf(Hypot(INFINITY, NAN)));
}

}  // namespace
}  // namespace meridian::geo
