// The JSON operators' symbols by the registered functions that the binder binds them to
// (bind_json.cc), so that EXPLAIN and stored expressions show `doc ->> 'k'` as PostgreSQL does.
#pragma once

#include <string_view>

#include "binder/bound_expr.h"

namespace meridian::exec {

// "->" for jsonb_object_field, "@>" for jsonb_contains, ...; null for any other function.
const char* JsonOperatorSymbol(std::string_view function);

// The geometric operators' symbols by their functions (bind_geometry.cc): "&&" for
// box_overlap, "<@" for on_pb, "<->" for point_distance, ...; null for any other function.
const char* GeometryOperatorSymbol(std::string_view function);

// For a jsonb comparison (jsonb_cmp(a, b) op 0, bind_json.cc): the call, else null.
const BoundExpr* JsonbComparisonCall(const BoundExpr& e);

}  // namespace meridian::exec
