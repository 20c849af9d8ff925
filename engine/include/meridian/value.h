// SQL types and values shared by every layer: the engine computes with them, storage encodes
// them, the server converts them to wire formats. Names and OIDs follow PostgreSQL.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "meridian/datetime.h"
#include "meridian/numeric.h"

namespace meridian {

enum class TypeId : uint8_t {
  kUnknown = 0,  // type of an untyped NULL or of a string literal before coercion
  kBoolean = 1,
  kInteger = 2,  // 32-bit; values outside int32 raise 22003
  kBigInt = 3,   // 64-bit
  kDouble = 4,   // DOUBLE PRECISION / FLOAT
  kText = 5,
  kVarchar = 6,       // VARCHAR(n): modifier = n, or -1 for unlimited
  kSmallInt = 7,      // 16-bit; values outside int16 raise 22003
  kReal = 8,          // REAL / FLOAT4: values held as float
  kChar = 9,          // CHAR(n) (bpchar): modifier = n; stored blank-padded to n
  kNumeric = 10,      // NUMERIC(p,s): modifier = (p << 16) | s, or -1 unconstrained
  kDate = 11,         // DATE
  kTimestamp = 12,    // TIMESTAMP [(p)] WITHOUT TIME ZONE: modifier = p (0..6), or -1
  kArray = 13,        // one-dimensional array of Type::element (modifier: the element's);
                      // a column may hold one (storage/tuple.h), no index key may
  kInterval = 14,     // INTERVAL
  kTimestampTz = 15,  // TIMESTAMP [(p)] WITH TIME ZONE: modifier = p (0..6), or -1
  kTime = 16,         // TIME [(p)] [WITHOUT TIME ZONE]: modifier = p (0..6), or -1
  kUuid = 17,         // UUID: 16 bytes, ordered bytewise
  kBytea = 18,        // BYTEA: a byte string, ordered bytewise (shorter prefix first)
  kJson = 19,         // JSON: held as a string, the text as given (validated on input)
  kJsonb = 20,        // JSONB: held as a string, the normalised text (see meridian/json.h)
  kPoint = 21,        // POINT: held as a string, point_out's text "(x,y)" (meridian/geometry.h)
  kBox = 22,          // BOX: held as a string, box_out's text "(hx,hy),(lx,ly)" (high corner first)
  kRecord = 23,       // RECORD: a row value (ROW(...), a whole-row reference `t`); a value type
                      // only, like kArray: each value carries its fields' names and types
};
inline constexpr int kMaxTypeId = 23;

struct Type {
  TypeId id = TypeId::kUnknown;
  int32_t modifier = -1;              // VARCHAR(n) length; -1 when the type has none
  TypeId element = TypeId::kUnknown;  // kArray: the element type (never kArray)

  static Type Unknown() { return {TypeId::kUnknown, -1}; }
  static Type Boolean() { return {TypeId::kBoolean, -1}; }
  static Type Integer() { return {TypeId::kInteger, -1}; }
  static Type BigInt() { return {TypeId::kBigInt, -1}; }
  static Type Double() { return {TypeId::kDouble, -1}; }
  static Type Text() { return {TypeId::kText, -1}; }
  static Type Varchar(int32_t n) { return {TypeId::kVarchar, n}; }
  static Type SmallInt() { return {TypeId::kSmallInt, -1}; }
  static Type Real() { return {TypeId::kReal, -1}; }
  static Type Char(int32_t n) { return {TypeId::kChar, n}; }
  static Type Numeric(int32_t typmod = -1) { return {TypeId::kNumeric, typmod}; }
  static Type Date() { return {TypeId::kDate, -1}; }
  static Type Timestamp(int32_t precision = -1) { return {TypeId::kTimestamp, precision}; }
  static Type TimestampTz(int32_t precision = -1) { return {TypeId::kTimestampTz, precision}; }
  static Type Interval() { return {TypeId::kInterval, -1}; }
  static Type Time(int32_t precision = -1) { return {TypeId::kTime, precision}; }
  static Type Uuid() { return {TypeId::kUuid, -1}; }
  static Type Bytea() { return {TypeId::kBytea, -1}; }
  static Type Json() { return {TypeId::kJson, -1}; }
  static Type Jsonb() { return {TypeId::kJsonb, -1}; }
  static Type Point() { return {TypeId::kPoint, -1}; }
  static Type Box() { return {TypeId::kBox, -1}; }
  static Type Record() { return {TypeId::kRecord, -1}; }
  // The array type of `of` (an array of arrays is the same array type, as in PostgreSQL).
  static Type Array(Type of) {
    return of.id == TypeId::kArray ? of : Type{TypeId::kArray, of.modifier, of.id};
  }

  // int2vector / oidvector (pg_index.indkey, indclass, ...): arrays of smallint / oid (bigint
  // here) that PostgreSQL names and prints its own way ("1 3", type oids 22 and 30).
  static constexpr int32_t kVectorModifier = -2;
  static Type Int2Vector() { return {TypeId::kArray, kVectorModifier, TypeId::kSmallInt}; }
  static Type OidVector() { return {TypeId::kArray, kVectorModifier, TypeId::kBigInt}; }

  bool IsArray() const { return id == TypeId::kArray; }
  bool IsVector() const { return id == TypeId::kArray && modifier == kVectorModifier; }
  // kArray: the element type; any other type: itself.
  Type Element() const { return IsArray() ? Type{element, IsVector() ? -1 : modifier} : *this; }

  // Every number type: smallint, integer, bigint, real, double precision, numeric.
  bool IsNumeric() const { return IsIntegral() || IsFloat() || id == TypeId::kNumeric; }
  bool IsIntegral() const {
    return id == TypeId::kInteger || id == TypeId::kBigInt || id == TypeId::kSmallInt;
  }
  bool IsFloat() const { return id == TypeId::kDouble || id == TypeId::kReal; }
  bool IsString() const {
    return id == TypeId::kText || id == TypeId::kVarchar || id == TypeId::kChar;
  }
  bool IsJson() const { return id == TypeId::kJson || id == TypeId::kJsonb; }
  // point and box (PostgreSQL's 2-D geometric types; text values, meridian/geometry.h).
  bool IsGeometric() const { return id == TypeId::kPoint || id == TypeId::kBox; }
  // date, timestamp and timestamptz (not time or interval).
  bool IsDateTime() const {
    return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTimestampTz;
  }

  // PostgreSQL's name: "integer", "bigint", "double precision", "text", "character varying",
  // "boolean", "unknown", "smallint", "real", "character", "numeric", "date",
  // "timestamp without time zone", "timestamp with time zone", "interval",
  // "time without time zone", "uuid", "bytea", "json", "jsonb", "point", "box"; arrays
  // "integer[]".
  std::string Name() const;
  // Name with modifier, as \d and format_type show it: "character varying(20)",
  // "numeric(10,2)", "character(3)", "timestamp(3) without time zone".
  std::string DisplayName() const;
  // pg_type.oid: bool 16, int8 20, int2 21, int4 23, text 25, float4 700, float8 701,
  // bpchar 1042, varchar 1043, date 1082, time 1083, timestamp 1114, timestamptz 1184,
  // interval 1186, numeric 1700, uuid 2950, bytea 17, json 114, jsonb 3802, point 600, box 603,
  // unknown 705; arrays
  // the element's array type (_int4 1007, _text 1009, ...).
  uint32_t PgOid() const;
  // pg_attribute.atttypmod / RowDescription's type modifier as PostgreSQL stores it:
  // varchar(n)/char(n) n + 4 (VARHDRSZ), numeric(p,s) ((p << 16) | s) + 4, timestamp(p) p,
  // else -1.
  int32_t PgTypmod() const;
  // The type of a statement parameter declared by pg_type.oid, as PostgreSQL clients declare
  // them: 0 and unknown (705) give Unknown (inferred from context); int2, int4, int8,
  // float4, float8, numeric, date, time, timestamp, timestamptz, interval, uuid, bytea, json,
  // jsonb, point, box their types;
  // text/bpchar/name → text, varchar (no length), bool. nullopt for other OIDs.
  static std::optional<Type> FromParamOid(uint32_t oid);

  friend bool operator==(const Type&, const Type&) = default;
};

struct ArrayValue;
struct RecordValue;

// The fields of a record value: names (row_to_json's keys: the columns', or f1, f2, ... for
// ROW(...)) and static types. Built once by the binder, shared by every value of the record.
struct RecordShape {
  std::vector<std::string> names;
  std::vector<Type> types;
};

// A UUID value: its 16 bytes in the order written (PostgreSQL's uuid compares them with memcmp).
struct Uuid {
  std::array<uint8_t, 16> bytes{};
  friend bool operator==(const Uuid&, const Uuid&) = default;
};

// A BYTEA value: the bytes themselves (not their text form).
struct Bytes {
  std::string data;
  friend bool operator==(const Bytes&, const Bytes&) = default;
};

// A SQL value: NULL, boolean, integer (SMALLINT, INTEGER and BIGINT all held as int64), double,
// string (TEXT, VARCHAR, CHAR, and JSON/JSONB as their text), numeric, date, timestamp, float
// (REAL), array (a shared, immutable list of element values), interval, timestamptz, time, uuid or
// bytea (byte string). The static SQL type lives with the column or expression, not in the value (a
// numeric carries its display scale).
class Value {
 public:
  Value() = default;  // NULL
  Value(const Value&) = default;
  Value(Value&&) noexcept = default;
  // Rows are reused row after row, so most assignments put a value of the same kind into a
  // slot (an integer over an integer, NULL over NULL): those are plain copies here, without
  // std::variant's generic assignment (an indirect call per value in profiles of scans/joins).
  Value& operator=(const Value& other) {
    if (!AssignSameScalar(other)) rep_ = other.rep_;
    return *this;
  }
  Value& operator=(Value&& other) noexcept {
    if (!AssignSameScalar(other)) rep_ = std::move(other.rep_);
    return *this;
  }
  ~Value() = default;
  static Value Null() { return Value(); }
  static Value Bool(bool b) { return Value(Rep(b)); }
  static Value Int(int64_t i) { return Value(Rep(i)); }
  static Value Double(double d) { return Value(Rep(d)); }
  static Value String(std::string s) { return Value(Rep(std::move(s))); }
  static Value Decimal(Numeric n) { return Value(Rep(n)); }
  static Value DateVal(meridian::Date d) { return Value(Rep(d)); }
  static Value TimestampVal(meridian::Timestamp t) { return Value(Rep(t)); }
  static Value Real(float f) { return Value(Rep(f)); }
  static Value IntervalVal(meridian::Interval i) { return Value(Rep(i)); }
  static Value TimestampTzVal(meridian::TimestampTz t) { return Value(Rep(t)); }
  static Value TimeVal(meridian::TimeOfDay t) { return Value(Rep(t)); }
  static Value UuidVal(meridian::Uuid u) { return Value(Rep(u)); }
  static Value ByteaVal(std::string bytes) { return Value(Rep(meridian::Bytes{std::move(bytes)})); }
  // A one-dimensional array (lower bound 1) of these elements; NULL elements allowed.
  static Value Array(std::vector<Value> elements);
  // A row value of these fields (fields.size() == shape->types.size()); NULL fields allowed.
  static Value Record(std::shared_ptr<const RecordShape> shape, std::vector<Value> fields);

  bool IsNull() const { return rep_.index() == 0; }
  bool IsBool() const { return rep_.index() == 1; }
  bool IsInt() const { return rep_.index() == 2; }
  bool IsDouble() const { return rep_.index() == 3; }
  bool IsString() const { return rep_.index() == 4; }
  bool IsDecimal() const { return rep_.index() == 5; }
  bool IsDate() const { return rep_.index() == 6; }
  bool IsTimestamp() const { return rep_.index() == 7; }
  bool IsReal() const { return rep_.index() == 8; }
  bool IsArray() const { return rep_.index() == 9; }
  bool IsInterval() const { return rep_.index() == 10; }
  bool IsTimestampTz() const { return rep_.index() == 11; }
  bool IsTime() const { return rep_.index() == 12; }
  bool IsUuid() const { return rep_.index() == 13; }
  bool IsBytea() const { return rep_.index() == 14; }
  bool IsRecord() const { return rep_.index() == 15; }
  // int, double, real or numeric.
  bool IsNumber() const { return IsInt() || IsDouble() || IsReal() || IsDecimal(); }

  bool AsBool() const { return std::get<bool>(rep_); }
  int64_t AsInt() const { return std::get<int64_t>(rep_); }
  double AsDouble() const { return std::get<double>(rep_); }
  const std::string& AsString() const { return std::get<std::string>(rep_); }
  const Numeric& AsDecimal() const { return std::get<Numeric>(rep_); }
  meridian::Date AsDate() const { return std::get<meridian::Date>(rep_); }
  meridian::Timestamp AsTimestamp() const { return std::get<meridian::Timestamp>(rep_); }
  float AsReal() const { return std::get<float>(rep_); }
  meridian::Interval AsInterval() const { return std::get<meridian::Interval>(rep_); }
  meridian::TimestampTz AsTimestampTz() const { return std::get<meridian::TimestampTz>(rep_); }
  meridian::TimeOfDay AsTime() const { return std::get<meridian::TimeOfDay>(rep_); }
  const meridian::Uuid& AsUuid() const { return std::get<meridian::Uuid>(rep_); }
  const std::string& AsBytea() const { return std::get<meridian::Bytes>(rep_).data; }
  const std::vector<Value>& AsArray() const;
  const RecordValue& AsRecord() const {
    return *std::get<std::shared_ptr<const RecordValue>>(rep_);
  }
  // A number as double (int, double, real or numeric); only for number values.
  double AsNumber() const;

  // PostgreSQL's text output: "t"/"f", integers in decimal, doubles in float8out's shortest
  // form ("100000000000000", "1e+15", "Infinity", "-Infinity", "NaN"), reals in float4out's
  // shortest form ("1e+06"), numerics with their scale ("1.50"), dates and timestamps in ISO form,
  // timestamptz in datetime::CurrentZone() with its offset, intervals as interval_out, strings
  // as they are, arrays as array_out does (`{1,NULL,"a b"}`), uuids lowercase with hyphens,
  // bytea in hex form (`\x01ff`, bytea_output = 'hex'), records as record_out does
  // (`(1,,"a b")`: NULL fields empty, fields quoted when they need it). NULL gives "" (callers
  // check).
  std::string ToString() const;

  // Approximate heap bytes, for chunk size accounting.
  size_t ByteSize() const;

  // Same kind and same value; arrays compare their elements.
  friend bool operator==(const Value& a, const Value& b);

 private:
  using Rep =
      std::variant<std::monostate, bool, int64_t, double, std::string, Numeric, meridian::Date,
                   meridian::Timestamp, float, std::shared_ptr<const ArrayValue>,
                   meridian::Interval, meridian::TimestampTz, meridian::TimeOfDay, meridian::Uuid,
                   meridian::Bytes, std::shared_ptr<const RecordValue>>;
  explicit Value(Rep r) : rep_(std::move(r)) {}
  // True when both hold NULL, an integer or a double (then copied here): kept small so that it
  // inlines; everything else takes std::variant's assignment.
  bool AssignSameScalar(const Value& other) {
    const size_t i = rep_.index();
    if (i != other.rep_.index()) return false;
    if (i == 0) return true;
    if (i == 2) {
      *std::get_if<int64_t>(&rep_) = *std::get_if<int64_t>(&other.rep_);
      return true;
    }
    if (i == 3) {
      *std::get_if<double>(&rep_) = *std::get_if<double>(&other.rep_);
      return true;
    }
    return false;
  }
  Rep rep_;
};

struct ArrayValue {
  std::vector<Value> elements;
};

struct RecordValue {
  std::shared_ptr<const RecordShape> shape;
  std::vector<Value> fields;
};

using Row = std::vector<Value>;

}  // namespace meridian
