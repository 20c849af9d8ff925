// Registered functions of the point and box types (binder/function_registry.h): the
// constructors and accessors (point, box, area, center, width, height) and the functions
// behind the geometric operators under PostgreSQL's names (box_overlap for &&, on_pb for
// point <@ box, point_distance for <->, ...; binder/bind_geometry.cc binds the operators to
// them). Values are the text forms of meridian/geometry.h.
#include <span>

#include "binder/function_registry.h"
#include "function/builtin.h"
#include "meridian/geometry.h"

namespace meridian::exec {
namespace {

using Args = std::span<const Value>;

geo::Point P(const Value& v) { return geo::PointOf(v.AsString()); }
geo::Box B(const Value& v) { return geo::BoxOf(v.AsString()); }
Value PointValue(const geo::Point& p) { return Value::String(geo::FormatPoint(p)); }

Result<Value> MakePoint(Args a, ExecContext*) {
  return PointValue({a[0].AsNumber(), a[1].AsNumber()});
}
Result<Value> MakeBox(Args a, ExecContext*) {
  const geo::Point p = P(a[0]);
  return Value::String(geo::FormatBox(geo::MakeBox(p, a.size() > 1 ? P(a[1]) : p)));
}
Result<Value> Area(Args a, ExecContext*) { return Value::Double(geo::Area(B(a[0]))); }
Result<Value> Center(Args a, ExecContext*) { return PointValue(geo::Center(B(a[0]))); }
Result<Value> Width(Args a, ExecContext*) { return Value::Double(geo::Width(B(a[0]))); }
Result<Value> Height(Args a, ExecContext*) { return Value::Double(geo::Height(B(a[0]))); }

Result<Value> BoxOverlap(Args a, ExecContext*) {
  return Value::Bool(geo::BoxOverlaps(B(a[0]), B(a[1])));
}
Result<Value> BoxContain(Args a, ExecContext*) {
  return Value::Bool(geo::BoxContains(B(a[0]), B(a[1])));
}
Result<Value> BoxContained(Args a, ExecContext*) {
  return Value::Bool(geo::BoxContains(B(a[1]), B(a[0])));
}
Result<Value> BoxContainPt(Args a, ExecContext*) {
  return Value::Bool(geo::BoxContainsPoint(B(a[0]), P(a[1])));
}
Result<Value> OnPb(Args a, ExecContext*) {
  return Value::Bool(geo::BoxContainsPoint(B(a[1]), P(a[0])));
}
Result<Value> BoxSame(Args a, ExecContext*) { return Value::Bool(geo::BoxSame(B(a[0]), B(a[1]))); }
Result<Value> PointEq(Args a, ExecContext*) {
  return Value::Bool(geo::PointSame(P(a[0]), P(a[1])));
}
Result<Value> PointNe(Args a, ExecContext*) {
  return Value::Bool(!geo::PointSame(P(a[0]), P(a[1])));
}
Result<Value> PointDistance(Args a, ExecContext*) {
  return Value::Double(geo::PointDistance(P(a[0]), P(a[1])));
}
Result<Value> DistPb(Args a, ExecContext*) {
  return Value::Double(geo::PointBoxDistance(P(a[0]), B(a[1])));
}
Result<Value> DistBp(Args a, ExecContext*) {
  return Value::Double(geo::PointBoxDistance(P(a[1]), B(a[0])));
}
Result<Value> BoxDistance(Args a, ExecContext*) {
  return Value::Double(geo::BoxDistance(B(a[0]), B(a[1])));
}
// box = < <= > >= compare areas (within EPSILON).
template <int kLo, int kHi>
Result<Value> AreaCompare(Args a, ExecContext*) {
  const int c = geo::CompareAreas(B(a[0]), B(a[1]));
  return Value::Bool(c >= kLo && c <= kHi);
}
// point[0], point[1]: x and y; any other subscript NULL.
Result<Value> PointSubscript(Args a, ExecContext*) {
  const geo::Point p = P(a[0]);
  const int64_t i = a[1].AsInt();
  if (i == 0) return Value::Double(p.x);
  if (i == 1) return Value::Double(p.y);
  return Value::Null();
}

constexpr ScalarFunction kGeometryFunctions[] = {
    {"point", "FF", 2, 'p', &MakePoint},
    {"box", "pp", 2, 'B', &MakeBox},
    {"box", "p", 1, 'B', &MakeBox},
    {"area", "B", 1, 'F', &Area},
    {"center", "B", 1, 'p', &Center},
    {"width", "B", 1, 'F', &Width},
    {"height", "B", 1, 'F', &Height},
    // The functions of the operators (binder/bind_geometry.cc).
    {"box_overlap", "BB", 2, 'b', &BoxOverlap},
    {"box_contain", "BB", 2, 'b', &BoxContain},
    {"box_contained", "BB", 2, 'b', &BoxContained},
    {"box_contain_pt", "Bp", 2, 'b', &BoxContainPt},
    {"on_pb", "pB", 2, 'b', &OnPb},
    {"box_same", "BB", 2, 'b', &BoxSame},
    {"point_eq", "pp", 2, 'b', &PointEq},
    {"point_ne", "pp", 2, 'b', &PointNe},
    {"point_distance", "pp", 2, 'F', &PointDistance},
    {"dist_pb", "pB", 2, 'F', &DistPb},
    {"dist_bp", "Bp", 2, 'F', &DistBp},
    {"box_distance", "BB", 2, 'F', &BoxDistance},
    {"box_eq", "BB", 2, 'b', &AreaCompare<0, 0>},
    {"box_lt", "BB", 2, 'b', &AreaCompare<-1, -1>},
    {"box_le", "BB", 2, 'b', &AreaCompare<-1, 0>},
    {"box_gt", "BB", 2, 'b', &AreaCompare<1, 1>},
    {"box_ge", "BB", 2, 'b', &AreaCompare<0, 1>},
    {"point_subscript", "pi", 2, 'F', &PointSubscript},
};

}  // namespace

void RegisterGeometryFunctions() { RegisterScalarFunctions(kGeometryFunctions); }

}  // namespace meridian::exec
