// point and box: text input/output and geometry (see meridian/geometry.h).
#include "meridian/geometry.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <utility>

#include "meridian/value.h"

namespace meridian::geo {
namespace {

Status BadSyntax(const char* type, std::string_view text) {
  return Status::Error(
      sqlstate::kInvalidTextRepresentation,
      std::string("invalid input syntax for type ") + type + ": \"" + std::string(text) + "\"");
}

bool IsBlank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The text being parsed: a NUL-terminated copy and a cursor into it.
struct Cursor {
  std::string s;
  size_t i = 0;
  char at() const { return i < s.size() ? s[i] : '\0'; }
  void SkipBlanks() {
    while (IsBlank(at())) ++i;
  }
};

// float8in_internal: blanks, a number as strtod reads it (also NaN, Infinity, inf), blanks.
Status ReadNumber(Cursor* c, double* out, const char* type, std::string_view orig) {
  c->SkipBlanks();
  const char* begin = c->s.c_str() + c->i;
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(begin, &end);
  if (end == begin) return BadSyntax(type, orig);
  if (errno == ERANGE && (d == 0 || std::isinf(d))) {
    const std::string number(begin, static_cast<size_t>(end - begin));
    // An underflow to a denormal is accepted, as PostgreSQL does.
    if (d == 0 || std::isinf(d)) {
      return Status::Error(sqlstate::kNumericValueOutOfRange,
                           "\"" + number + "\" is out of range for type double precision");
    }
  }
  *out = d;
  c->i += static_cast<size_t>(end - begin);
  c->SkipBlanks();
  return Status::Ok();
}

// pair_decode: [(]x,y[)] followed by blanks.
Status ReadPair(Cursor* c, Point* p, const char* type, std::string_view orig) {
  c->SkipBlanks();
  const bool delim = c->at() == '(';
  if (delim) ++c->i;
  MERIDIAN_RETURN_IF_ERROR(ReadNumber(c, &p->x, type, orig));
  if (c->at() != ',') return BadSyntax(type, orig);
  ++c->i;
  MERIDIAN_RETURN_IF_ERROR(ReadNumber(c, &p->y, type, orig));
  if (delim) {
    if (c->at() != ')') return BadSyntax(type, orig);
    ++c->i;
    c->SkipBlanks();
  }
  return Status::Ok();
}

}  // namespace

Result<Point> ParsePoint(std::string_view text) {
  Cursor c{std::string(text)};
  Point p;
  MERIDIAN_RETURN_IF_ERROR(ReadPair(&c, &p, "point", text));
  if (c.i != c.s.size()) return BadSyntax("point", text);
  return p;
}

Result<Box> ParseBox(std::string_view text) {
  // path_decode of two points: an outer "(" when the next "(" follows it or none is later.
  Cursor c{std::string(text)};
  c.SkipBlanks();
  int depth = 0;
  if (c.at() == '(') {
    size_t next = c.i + 1;
    while (next < c.s.size() && IsBlank(c.s[next])) ++next;
    if ((next < c.s.size() && c.s[next] == '(') || c.s.rfind('(') == c.i) {
      ++depth;
      c.i = next;
    }
  }
  Point pts[2];
  for (Point& p : pts) {
    MERIDIAN_RETURN_IF_ERROR(ReadPair(&c, &p, "box", text));
    if (c.at() == ',') ++c.i;
  }
  for (; depth > 0; --depth) {
    if (c.at() != ')') return BadSyntax("box", text);
    ++c.i;
    c.SkipBlanks();
  }
  if (c.i != c.s.size()) return BadSyntax("box", text);
  return MakeBox(pts[0], pts[1]);
}

Box MakeBox(const Point& a, const Point& b) {
  Box box{a, b};
  if (box.high.x < box.low.x) std::swap(box.high.x, box.low.x);
  if (box.high.y < box.low.y) std::swap(box.high.y, box.low.y);
  return box;
}

std::string FormatPoint(const Point& p) {
  return "(" + Value::Double(p.x).ToString() + "," + Value::Double(p.y).ToString() + ")";
}

std::string FormatBox(const Box& b) { return FormatPoint(b.high) + "," + FormatPoint(b.low); }

namespace {

// The n numbers of an output form ("(x,y)", "(a,b),(c,d)") by from_chars, without copying the
// text; false for anything else (the caller then parses it as input).
bool ReadOutputForm(std::string_view s, double* out, int n) {
  const char* p = s.data();
  const char* end = p + s.size();
  for (int i = 0; i < n; ++i) {
    while (p < end && (*p == '(' || *p == ',' || *p == ')')) ++p;
    auto [next, ec] = std::from_chars(p, end, out[i]);
    if (ec != std::errc()) return false;
    p = next;
  }
  while (p < end && *p == ')') ++p;
  return p == end;
}

// PointOf/BoxOf's parse cache: per thread, direct-mapped by a hash of the text, so a value
// that comes back row after row (the outer row's box in a nested loop, a constant) is parsed
// once. An entry holds the text itself (no allocation); longer texts are not cached.
template <typename T>
class ParseCache {
 public:
  static constexpr size_t kSlots = 256;
  static constexpr size_t kMaxText = 110;  // four 24-digit numbers and their punctuation

  // The cached value of text, or null.
  const T* Find(std::string_view text, size_t* slot) {
    *slot = std::hash<std::string_view>{}(text) % kSlots;
    const Entry& e = slots_[*slot];
    if (e.size != text.size() || text.size() > kMaxText) return nullptr;
    return std::memcmp(e.text, text.data(), text.size()) == 0 ? &e.value : nullptr;
  }
  void Put(size_t slot, std::string_view text, const T& value) {
    if (text.size() > kMaxText) return;
    Entry& e = slots_[slot];
    e.size = static_cast<uint8_t>(text.size());
    std::memcpy(e.text, text.data(), text.size());
    e.value = value;
  }

 private:
  struct Entry {
    uint8_t size = 0xff;  // no text has this size: empty
    char text[kMaxText];
    T value;
  };
  Entry slots_[kSlots];
};

template <typename T>
T ParseCached(std::string_view text, T (*parse)(std::string_view)) {
  thread_local ParseCache<T> cache;
  size_t slot = 0;
  if (const T* hit = cache.Find(text, &slot)) return *hit;
  const T value = parse(text);
  cache.Put(slot, text, value);
  return value;
}

Point ParsePointOf(std::string_view text) {
  double d[2];
  if (ReadOutputForm(text, d, 2)) return {d[0], d[1]};
  auto p = ParsePoint(text);
  return p.ok() ? *p : Point{};
}

Box ParseBoxOf(std::string_view text) {
  double d[4];
  if (ReadOutputForm(text, d, 4)) return {{d[0], d[1]}, {d[2], d[3]}};
  auto b = ParseBox(text);
  return b.ok() ? *b : Box{};
}

}  // namespace

Point PointOf(std::string_view text) { return ParseCached<Point>(text, ParsePointOf); }

Box BoxOf(std::string_view text) { return ParseCached<Box>(text, ParseBoxOf); }

double Hypot(double x, double y) {
  if (std::isinf(x) || std::isinf(y)) return std::numeric_limits<double>::infinity();
  if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
  x = std::fabs(x);
  y = std::fabs(y);
  if (x < y) std::swap(x, y);
  if (y == 0.0) return x;
  const double yx = y / x;
  return x * std::sqrt(1.0 + yx * yx);
}

bool PointSame(const Point& a, const Point& b) {
  if (std::isnan(a.x) || std::isnan(a.y) || std::isnan(b.x) || std::isnan(b.y)) {
    // float8_eq: NaN equals NaN.
    auto eq = [](double u, double v) { return (std::isnan(u) && std::isnan(v)) || u == v; };
    return eq(a.x, b.x) && eq(a.y, b.y);
  }
  return FPeq(a.x, b.x) && FPeq(a.y, b.y);
}

bool BoxSame(const Box& a, const Box& b) {
  return FPeq(a.high.x, b.high.x) && FPeq(a.low.x, b.low.x) && FPeq(a.high.y, b.high.y) &&
         FPeq(a.low.y, b.low.y);
}

bool BoxOverlaps(const Box& a, const Box& b) {
  return FPle(a.low.x, b.high.x) && FPle(b.low.x, a.high.x) && FPle(a.low.y, b.high.y) &&
         FPle(b.low.y, a.high.y);
}

bool BoxContains(const Box& a, const Box& b) {
  return FPge(a.high.x, b.high.x) && FPle(a.low.x, b.low.x) && FPge(a.high.y, b.high.y) &&
         FPle(a.low.y, b.low.y);
}

bool BoxContainsPoint(const Box& b, const Point& p) {
  return b.high.x >= p.x && b.low.x <= p.x && b.high.y >= p.y && b.low.y <= p.y;
}

double PointDistance(const Point& a, const Point& b) { return Hypot(a.x - b.x, a.y - b.y); }

double PointBoxDistance(const Point& p, const Box& b) {
  if (BoxContainsPoint(b, p)) return 0.0;
  // The closest point of the box's boundary: each coordinate clamped into the box.
  const Point close{std::min(std::max(p.x, b.low.x), b.high.x),
                    std::min(std::max(p.y, b.low.y), b.high.y)};
  return PointDistance(close, p);
}

Point Center(const Box& b) { return {(b.high.x + b.low.x) / 2.0, (b.high.y + b.low.y) / 2.0}; }

double BoxDistance(const Box& a, const Box& b) { return PointDistance(Center(a), Center(b)); }

double Width(const Box& b) { return b.high.x - b.low.x; }
double Height(const Box& b) { return b.high.y - b.low.y; }
double Area(const Box& b) { return Width(b) * Height(b); }

int CompareAreas(const Box& a, const Box& b) {
  const double x = Area(a), y = Area(b);
  if (FPlt(x, y)) return -1;
  if (FPgt(x, y)) return 1;
  return 0;
}

}  // namespace meridian::geo
