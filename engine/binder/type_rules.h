// PostgreSQL-like type rules of the supported types: common types (CASE, COALESCE, IN),
// comparison and arithmetic operand checks, and value casts (explicit, assignment and the
// coercion of string literals, whose type is "unknown" until context decides).
#pragma once

#include <optional>
#include <string>

#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::exec {

// Type of a + b etc. for number operands, as PostgreSQL's operators give it: double precision
// if either is a float (real only when both are), else numeric, else bigint > integer >
// smallint.
Type PromoteNumeric(Type a, Type b);
// Common type of two branches (unknown yields to the other; numerics promote; text wins over
// varchar); nullopt when none exists.
std::optional<Type> CommonType(Type a, Type b);
// Whether values of a and b may be compared with = < ... (unknown compares with anything).
bool Comparable(Type a, Type b);
// Types without a default equality (btree/hash) operator: json, point, box. GROUP BY, DISTINCT,
// DISTINCT aggregates, ORDER BY and UNION/INTERSECT/EXCEPT (not ALL) over them fail with
// NoEquality: 42883 "could not identify an equality operator for type json".
bool NoEqualityType(Type t);
Status NoEquality(const Type& t, uint32_t position);

// Converts v (of static type from) to type to. explicit_cast: CAST/:: semantics (varchar(n)
// truncates; bool <-> integer allowed). Errors 22P02, 22003, 42846 (no such cast).
Result<Value> CastValue(const Value& v, Type from, Type to, bool explicit_cast);
// Whether an assignment (INSERT/UPDATE value) from type from to column type to is allowed.
bool CanAssign(Type from, Type to);
// Converts a value being stored in a column: range checks, varchar(n) length (22001).
Result<Value> AssignValue(const Value& v, Type from, Type to);
// array_in: the text form `{a,"b c",NULL}` of a one-dimensional array of type to (kArray).
Result<Value> ParseArray(const std::string& text, Type to, bool explicit_cast);
// to_json / to_jsonb of a value of type from (not text: the caller quotes strings): JSON
// numbers, true/false, strings of the text form (timestamps in ISO 8601 with 'T'), arrays as
// JSON arrays; json and jsonb values as they are (jsonb: normalised).
std::string ToJsonText(const Value& v, Type from, bool jsonb);
// jsonb::numeric/int/float/boolean: 22023 "cannot cast jsonb string to type integer" unless
// the jsonb is a number (boolean: true/false).
Result<Value> JsonbToScalar(const std::string& text, Type to, bool explicit_cast);
// Whether an explicit CAST from → to exists.
bool CanCast(Type from, Type to);

// 22003 "smallint/integer/bigint out of range" unless v fits integer type t.
Status CheckRange(int64_t v, Type t);
// Three-way comparison of two non-NULL values of comparable types.
int CompareValues(const Value& a, const Value& b);
// PostgreSQL's record_eq / record_cmp between two record values: field by field, a NULL field
// equal to NULL and above every value; the first unequal pair decides. A pair reached whose
// types differ is 42804 "cannot compare dissimilar column types ...", a field type without
// equality (json, point, box) 42883; records equal up to the shorter one's length but of
// different lengths are 42804. ordering: the message of record_cmp (< <= > >=) for 42883.
Result<int> CompareRecords(const Value& a, const Value& b, bool ordering);
// A number value (int, double, real, numeric; or numeric text) as Numeric.
Result<Numeric> ToNumericValue(const Value& v);
// Number of characters (UTF-8 code points) in s.
size_t CharLength(const std::string& s);

}  // namespace meridian::exec
