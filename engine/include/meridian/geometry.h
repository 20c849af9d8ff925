// PostgreSQL 15's 2-D geometric types point and box: their text input and output (point_in /
// point_out, box_in / box_out), and the operations SQL and the R-tree share (containment,
// overlap, sameness, distance, area), with PostgreSQL's EPSILON (1e-6) fuzz where its geo_ops.c
// has it.
//
// A point or box value is held as a string (Value::String) in the output form: "(x,y)" and
// "(hx,hy),(lx,ly)" (high corner first; box input swaps coordinates into that order), each
// number in float8out's shortest round-trip form, so text → value → text is lossless and two
// values are the same exactly when their strings are.
#pragma once

#include <string>
#include <string_view>

#include "meridian/status.h"

namespace meridian::geo {

inline constexpr double kEpsilon = 1.0e-6;  // PostgreSQL's EPSILON (geo_decls.h)

struct Point {
  double x = 0, y = 0;
};
struct Box {
  Point high, low;  // high.x >= low.x and high.y >= low.y
};

// point_in: "(x,y)" or "x,y", blanks around each part; 22P02 "invalid input syntax for type
// point" otherwise, 22003 for a number beyond double precision.
Result<Point> ParsePoint(std::string_view text);
// box_in: "((x1,y1),(x2,y2))", "(x1,y1),(x2,y2)" or "x1,y1,x2,y2", corners sorted so high is
// the upper right one.
Result<Box> ParseBox(std::string_view text);
std::string FormatPoint(const Point& p);
std::string FormatBox(const Box& b);
// box(p1, p2): the box with these opposite corners.
Box MakeBox(const Point& a, const Point& b);

// Text already in output form (a stored or computed value): parsed without errors (a
// malformed string gives zeros). Each thread keeps the last texts it parsed (256 of each type,
// direct-mapped by hash; texts up to 110 bytes), so a value seen again (a nested loop's outer
// box, a constant) is not parsed again: parsing was a third of an unindexed geometric join.
Point PointOf(std::string_view text);
Box BoxOf(std::string_view text);

// The fuzzy comparisons of geo_decls.h.
inline bool FPeq(double a, double b) { return a == b || (a - b <= kEpsilon && b - a <= kEpsilon); }
inline bool FPle(double a, double b) { return a - b <= kEpsilon; }
inline bool FPge(double a, double b) { return b - a <= kEpsilon; }
inline bool FPlt(double a, double b) { return b - a > kEpsilon; }
inline bool FPgt(double a, double b) { return a - b > kEpsilon; }

// pg_hypot: sqrt(x² + y²) computed as PostgreSQL does (so results agree to the last bit).
double Hypot(double x, double y);

bool PointSame(const Point& a, const Point& b);         // point ~= point (NaN: exact)
bool BoxSame(const Box& a, const Box& b);               // box ~= box
bool BoxOverlaps(const Box& a, const Box& b);           // box && box
bool BoxContains(const Box& a, const Box& b);           // a @> b
bool BoxContainsPoint(const Box& b, const Point& p);    // b @> p, p <@ b (exact, no fuzz)
double PointDistance(const Point& a, const Point& b);   // point <-> point
double PointBoxDistance(const Point& p, const Box& b);  // point <-> box, box <-> point
double BoxDistance(const Box& a, const Box& b);         // box <-> box: between the centres
Point Center(const Box& b);
double Width(const Box& b);
double Height(const Box& b);
double Area(const Box& b);
// Box comparison by area (box = < <= > >=): -1, 0 (equal within EPSILON) or 1.
int CompareAreas(const Box& a, const Box& b);

}  // namespace meridian::geo
