// SQL types and values shared by every layer: the engine computes with them, storage encodes
// them, the server converts them to wire formats. Names and OIDs follow PostgreSQL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace meridian {

enum class TypeId : uint8_t {
  kUnknown = 0,  // type of an untyped NULL or of a string literal before coercion
  kBoolean = 1,
  kInteger = 2,  // 32-bit; values outside int32 raise 22003
  kBigInt = 3,   // 64-bit
  kDouble = 4,   // DOUBLE PRECISION / FLOAT
  kText = 5,
  kVarchar = 6,  // VARCHAR(n): modifier = n, or -1 for unlimited
};

struct Type {
  TypeId id = TypeId::kUnknown;
  int32_t modifier = -1;  // VARCHAR(n) length; -1 when the type has none

  static Type Unknown() { return {TypeId::kUnknown, -1}; }
  static Type Boolean() { return {TypeId::kBoolean, -1}; }
  static Type Integer() { return {TypeId::kInteger, -1}; }
  static Type BigInt() { return {TypeId::kBigInt, -1}; }
  static Type Double() { return {TypeId::kDouble, -1}; }
  static Type Text() { return {TypeId::kText, -1}; }
  static Type Varchar(int32_t n) { return {TypeId::kVarchar, n}; }

  bool IsNumeric() const {
    return id == TypeId::kInteger || id == TypeId::kBigInt || id == TypeId::kDouble;
  }
  bool IsIntegral() const { return id == TypeId::kInteger || id == TypeId::kBigInt; }
  bool IsString() const { return id == TypeId::kText || id == TypeId::kVarchar; }

  // PostgreSQL's name: "integer", "bigint", "double precision", "text", "character varying",
  // "boolean", "unknown".
  std::string Name() const;
  // Name with modifier, as \d shows it: "character varying(20)".
  std::string DisplayName() const;
  // pg_type.oid: bool 16, int8 20, int4 23, text 25, float8 701, varchar 1043, unknown 705.
  uint32_t PgOid() const;
  // The type of a statement parameter declared by pg_type.oid, as PostgreSQL clients declare
  // them: 0, unknown (705) and numeric (1700, not a Meridian type yet) give Unknown (inferred
  // from context); int2/int4 → integer, int8 → bigint, float4/float8 → double precision,
  // text/bpchar/name → text, varchar (no length), bool. nullopt for other OIDs.
  static std::optional<Type> FromParamOid(uint32_t oid);

  friend bool operator==(const Type&, const Type&) = default;
};

// A SQL value: NULL, boolean, integer (INTEGER and BIGINT both held as int64), double or string.
// The static SQL type lives with the column or expression, not in the value.
class Value {
 public:
  Value() = default;  // NULL
  static Value Null() { return Value(); }
  static Value Bool(bool b) { return Value(Rep(b)); }
  static Value Int(int64_t i) { return Value(Rep(i)); }
  static Value Double(double d) { return Value(Rep(d)); }
  static Value String(std::string s) { return Value(Rep(std::move(s))); }

  bool IsNull() const { return rep_.index() == 0; }
  bool IsBool() const { return rep_.index() == 1; }
  bool IsInt() const { return rep_.index() == 2; }
  bool IsDouble() const { return rep_.index() == 3; }
  bool IsString() const { return rep_.index() == 4; }

  bool AsBool() const { return std::get<bool>(rep_); }
  int64_t AsInt() const { return std::get<int64_t>(rep_); }
  double AsDouble() const { return std::get<double>(rep_); }
  const std::string& AsString() const { return std::get<std::string>(rep_); }
  // Numeric value as double (int or double); only for numeric values.
  double AsNumber() const { return IsInt() ? static_cast<double>(AsInt()) : AsDouble(); }

  // PostgreSQL's text output: "t"/"f", integers in decimal, doubles in shortest round-trip
  // form ("Infinity", "-Infinity", "NaN"), strings as they are. NULL gives "" (callers check).
  std::string ToString() const;

  // Approximate heap bytes, for chunk size accounting.
  size_t ByteSize() const { return sizeof(Value) + (IsString() ? AsString().size() : 0); }

  friend bool operator==(const Value& a, const Value& b) { return a.rep_ == b.rep_; }

 private:
  using Rep = std::variant<std::monostate, bool, int64_t, double, std::string>;
  explicit Value(Rep r) : rep_(std::move(r)) {}
  Rep rep_;
};

using Row = std::vector<Value>;

}  // namespace meridian
