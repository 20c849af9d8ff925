// Registration of the built-in scalar functions of engine/function in the binder's registry
// (binder/function_registry.h). RegisterBuiltinFunctions runs each family's registration once
// per process; the engine calls it before any statement is bound (Database's constructor).
#pragma once

namespace meridian::exec {

void RegisterBuiltinFunctions();

// One family each (string_functions.cc, math_functions.cc, system_functions.cc).
void RegisterStringFunctions();
void RegisterMathFunctions();
void RegisterSystemScalarFunctions();
void RegisterSizeFunctions();      // size_functions.cc
void RegisterBinaryFunctions();    // binary_functions.cc (uuid, bytea)
void RegisterJsonFunctions();      // json_functions.cc (json, jsonb)
void RegisterGeometryFunctions();  // geometry_functions.cc (point, box)
void RegisterArrayFunctions();     // array_functions.cc (the functions of @>, <@, && on arrays)
void RegisterDateTimeFunctions();  // datetime_functions.cc (date_bin)
void RegisterFormatFunctions();    // format_functions.cc (to_char, to_date, to_timestamp, make_*)

}  // namespace meridian::exec
