// Typed result values and column descriptions of the Meridian client library.
// A Value mirrors meridian.v1.Value (NULL, bool, int64, double, text, bytes) without exposing
// protobuf; ToText() renders it as PostgreSQL's text output would (t/f, shortest doubles).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace meridian::client {

// PostgreSQL type OIDs the client knows by number (pg_type.oid).
inline constexpr uint32_t kOidBool = 16;
inline constexpr uint32_t kOidInt8 = 20;
inline constexpr uint32_t kOidInt2 = 21;
inline constexpr uint32_t kOidInt4 = 23;
inline constexpr uint32_t kOidText = 25;
inline constexpr uint32_t kOidOid = 26;
inline constexpr uint32_t kOidFloat4 = 700;
inline constexpr uint32_t kOidFloat8 = 701;
inline constexpr uint32_t kOidVarchar = 1043;
inline constexpr uint32_t kOidNumeric = 1700;
inline constexpr uint32_t kOidDate = 1082;       // values as text, 'YYYY-MM-DD'
inline constexpr uint32_t kOidTimestamp = 1114;  // values as text, 'YYYY-MM-DD HH:MM:SS[.ffffff]'

// True for the integer, floating and numeric types (right-aligned, unquoted in JSON).
bool IsNumericOid(uint32_t oid);

struct ColumnInfo {
  std::string name;
  std::string type_name;  // PostgreSQL spelling, e.g. "integer", "character varying"
  int32_t type_mod = -1;  // e.g. n of VARCHAR(n); -1 when none
  uint32_t pg_oid = 0;
  bool nullable = true;

  // type_name with its modifier, e.g. "character varying(10)".
  std::string DisplayType() const;
};

class Value {
 public:
  enum class Kind { kNull, kBool, kInt, kDouble, kText, kBytes };

  Value() = default;  // NULL
  static Value Null() { return Value(); }
  static Value Bool(bool b) { return Value(Storage(std::in_place_index<1>, b)); }
  static Value Int(int64_t i) { return Value(Storage(std::in_place_index<2>, i)); }
  static Value Double(double d) { return Value(Storage(std::in_place_index<3>, d)); }
  static Value Text(std::string s) { return Value(Storage(std::in_place_index<4>, std::move(s))); }
  static Value Bytes(std::string s) { return Value(Storage(std::in_place_index<5>, std::move(s))); }

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool is_null() const { return v_.index() == 0; }
  bool as_bool() const { return std::get<1>(v_); }
  int64_t as_int() const { return std::get<2>(v_); }
  double as_double() const { return std::get<3>(v_); }
  // Text or bytes payload.
  const std::string& as_string() const {
    return v_.index() == 4 ? std::get<4>(v_) : std::get<5>(v_);
  }

  // PostgreSQL text form: "t"/"f", decimal integers, shortest round-trip doubles
  // ("1e+15", "NaN", "-Infinity"), text as is, bytes as \x hex. NULL gives "".
  std::string ToText() const;

  bool operator==(const Value& other) const = default;

 private:
  using Storage = std::variant<std::monostate, bool, int64_t, double, std::string, std::string>;
  explicit Value(Storage v) : v_(std::move(v)) {}
  Storage v_;
};

using Row = std::vector<Value>;

// A double in PostgreSQL's float8out form (extra_float_digits = 1, the default since PG 12).
std::string FormatDouble(double d);

}  // namespace meridian::client
