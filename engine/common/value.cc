// Type names, OIDs and the text form of values (PostgreSQL's output functions).
#include "meridian/value.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "meridian/binary.h"
#include "meridian/pg_oids.h"

namespace meridian {

std::string Type::Name() const {
  switch (id) {
    case TypeId::kUnknown:
      return "unknown";
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kInteger:
      return "integer";
    case TypeId::kBigInt:
      return "bigint";
    case TypeId::kDouble:
      return "double precision";
    case TypeId::kText:
      return "text";
    case TypeId::kVarchar:
      return "character varying";
    case TypeId::kSmallInt:
      return "smallint";
    case TypeId::kReal:
      return "real";
    case TypeId::kChar:
      return "character";
    case TypeId::kNumeric:
      return "numeric";
    case TypeId::kDate:
      return "date";
    case TypeId::kTimestamp:
      return "timestamp without time zone";
    case TypeId::kTimestampTz:
      return "timestamp with time zone";
    case TypeId::kInterval:
      return "interval";
    case TypeId::kTime:
      return "time without time zone";
    case TypeId::kUuid:
      return "uuid";
    case TypeId::kBytea:
      return "bytea";
    case TypeId::kJson:
      return "json";
    case TypeId::kJsonb:
      return "jsonb";
    case TypeId::kPoint:
      return "point";
    case TypeId::kBox:
      return "box";
    case TypeId::kRecord:
      return "record";
    case TypeId::kArray:
      if (IsVector()) return element == TypeId::kSmallInt ? "int2vector" : "oidvector";
      return Element().Name() + "[]";
  }
  return "unknown";
}

std::string Type::DisplayName() const {
  if (IsVector()) return Name();
  if (IsArray()) return Element().DisplayName() + "[]";
  if ((id == TypeId::kVarchar || id == TypeId::kChar) && modifier >= 0) {
    return Name() + "(" + std::to_string(modifier) + ")";
  }
  if (id == TypeId::kNumeric && modifier >= 0) {
    return "numeric(" + std::to_string(numeric::TypmodPrecision(modifier)) + "," +
           std::to_string(numeric::TypmodScale(modifier)) + ")";
  }
  if (id == TypeId::kTimestamp && modifier >= 0) {
    return "timestamp(" + std::to_string(modifier) + ") without time zone";
  }
  if (id == TypeId::kTimestampTz && modifier >= 0) {
    return "timestamp(" + std::to_string(modifier) + ") with time zone";
  }
  if (id == TypeId::kTime && modifier >= 0) {
    return "time(" + std::to_string(modifier) + ") without time zone";
  }
  return Name();
}

uint32_t Type::PgOid() const {
  switch (id) {
    case TypeId::kUnknown:
      return kOidUnknown;
    case TypeId::kBoolean:
      return kOidBool;
    case TypeId::kInteger:
      return kOidInt4;
    case TypeId::kBigInt:
      return kOidInt8;
    case TypeId::kDouble:
      return kOidFloat8;
    case TypeId::kText:
      return kOidText;
    case TypeId::kVarchar:
      return kOidVarchar;
    case TypeId::kSmallInt:
      return kOidInt2;
    case TypeId::kReal:
      return kOidFloat4;
    case TypeId::kChar:
      return kOidBpchar;
    case TypeId::kNumeric:
      return kOidNumeric;
    case TypeId::kDate:
      return kOidDate;
    case TypeId::kTimestamp:
      return kOidTimestamp;
    case TypeId::kTimestampTz:
      return kOidTimestampTz;
    case TypeId::kInterval:
      return kOidInterval;
    case TypeId::kTime:
      return kOidTime;
    case TypeId::kUuid:
      return kOidUuid;
    case TypeId::kBytea:
      return kOidBytea;
    case TypeId::kJson:
      return kOidJson;
    case TypeId::kJsonb:
      return kOidJsonb;
    case TypeId::kPoint:
      return kOidPoint;
    case TypeId::kBox:
      return kOidBox;
    case TypeId::kRecord:
      return kOidRecord;
    case TypeId::kArray:
      if (IsVector()) return element == TypeId::kSmallInt ? kOidInt2Vector : kOidOidVector;
      switch (element) {  // pg_type.typarray of the element type
        case TypeId::kBoolean:
          return kOidBoolArray;
        case TypeId::kSmallInt:
          return kOidInt2Array;
        case TypeId::kInteger:
          return kOidInt4Array;
        case TypeId::kBigInt:
          return kOidInt8Array;
        case TypeId::kReal:
          return kOidFloat4Array;
        case TypeId::kDouble:
          return kOidFloat8Array;
        case TypeId::kChar:
          return kOidBpcharArray;
        case TypeId::kVarchar:
          return kOidVarcharArray;
        case TypeId::kDate:
          return kOidDateArray;
        case TypeId::kTimestamp:
          return kOidTimestampArray;
        case TypeId::kTimestampTz:
          return kOidTimestampTzArray;
        case TypeId::kInterval:
          return kOidIntervalArray;
        case TypeId::kTime:
          return kOidTimeArray;
        case TypeId::kUuid:
          return kOidUuidArray;
        case TypeId::kBytea:
          return kOidByteaArray;
        case TypeId::kJson:
          return kOidJsonArray;
        case TypeId::kJsonb:
          return kOidJsonbArray;
        case TypeId::kPoint:
          return kOidPointArray;
        case TypeId::kBox:
          return kOidBoxArray;
        case TypeId::kNumeric:
          return kOidNumericArray;
        default:
          return kOidTextArray;  // text[] (an array of unknown literals resolves to text[])
      }
  }
  return kOidUnknown;
}

int32_t Type::PgTypmod() const {
  if (modifier < 0) return -1;
  if (IsArray()) return Element().PgTypmod();
  switch (id) {
    case TypeId::kVarchar:
    case TypeId::kChar:
    case TypeId::kNumeric:
      return modifier + 4;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTime:
      return modifier;
    default:
      return -1;
  }
}

std::optional<Type> Type::FromParamOid(uint32_t oid) {
  switch (oid) {
    case 0:
    case kOidUnknown:
      return Unknown();
    case kOidBool:
      return Boolean();
    case kOidInt2:
      return SmallInt();
    case kOidInt4:
      return Integer();
    case kOidInt8:
      return BigInt();
    case kOidFloat4:
      return Real();
    case kOidFloat8:
      return Double();
    case kOidNumeric:
      return Numeric();
    case kOidDate:
      return Date();
    case kOidTimestamp:
      return Timestamp();
    case kOidTimestampTz:
      return TimestampTz();
    case kOidInterval:
      return Interval();
    case kOidTime:
      return Time();
    case kOidUuid:
      return Uuid();
    case kOidBytea:
      return Bytea();
    case kOidJson:
      return Json();
    case kOidJsonb:
      return Jsonb();
    case kOidPoint:
      return Point();
    case kOidBox:
      return Box();
    case kOidName:
    case kOidText:
    case kOidBpchar:
      return Text();
    case kOidVarchar:
      return Varchar(-1);
    default:
      break;
  }
  // One-dimensional arrays of those (a client's list parameter, `x = ANY($1)`): the element
  // type's, read from the text form '{...}' like a cast.
  struct ArrayOid {
    int64_t oid;
    int64_t element;
  };
  static constexpr ArrayOid kArrays[] = {
      {kOidBoolArray, kOidBool},           {kOidInt2Array, kOidInt2},
      {kOidInt4Array, kOidInt4},           {kOidInt8Array, kOidInt8},
      {kOidFloat4Array, kOidFloat4},       {kOidFloat8Array, kOidFloat8},
      {kOidNumericArray, kOidNumeric},     {kOidDateArray, kOidDate},
      {kOidTimestampArray, kOidTimestamp}, {kOidTimestampTzArray, kOidTimestampTz},
      {kOidTextArray, kOidText},           {kOidVarcharArray, kOidVarchar},
      {kOidBpcharArray, kOidBpchar},       {kOidIntervalArray, kOidInterval},
      {kOidTimeArray, kOidTime},           {kOidUuidArray, kOidUuid},
      {kOidByteaArray, kOidBytea},         {kOidJsonArray, kOidJson},
      {kOidJsonbArray, kOidJsonb}};
  for (const ArrayOid& a : kArrays) {
    if (a.oid == oid) return Array(*FromParamOid(static_cast<uint32_t>(a.element)));
  }
  return std::nullopt;
}

namespace {

// PostgreSQL's float4out/float8out (extra_float_digits = 1): the shortest digits that read
// back exactly, in exponent form when the decimal exponent is below -4 or at least
// max_fixed_exponent (FLT_DIG = 6 for real, DBL_DIG = 15 for double precision).
std::string FormatShortest(const char* sci, int max_fixed_exponent) {
  std::string_view s(sci);
  std::string out;
  if (!s.empty() && s[0] == '-') {
    out = "-";
    s.remove_prefix(1);
  }
  const size_t epos = s.find('e');
  std::string digits;
  for (char c : s.substr(0, epos)) {
    if (c != '.') digits.push_back(c);
  }
  const int exponent = std::atoi(std::string(s.substr(epos + 1)).c_str());
  if (exponent < -4 || exponent >= max_fixed_exponent) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    char ebuf[16];
    std::snprintf(ebuf, sizeof(ebuf), "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + ebuf;
  }
  if (exponent < 0)
    return out + "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
  const size_t int_len = static_cast<size_t>(exponent) + 1;
  if (digits.size() <= int_len) return out + digits + std::string(int_len - digits.size(), '0');
  return out + digits.substr(0, int_len) + "." + digits.substr(int_len);
}

// An array element or record field in array_out's / record_out's text: as it is, or quoted
// with `"` and `\` escaped by escape (array_out: a backslash) or doubled (escape 0: record_out).
void AppendElement(std::string* out, const std::string& text, bool quote, char escape) {
  if (!quote) {
    *out += text;
    return;
  }
  *out += '"';
  for (char c : text) {
    if (c == '"' || c == '\\') *out += escape != 0 ? escape : c;
    *out += c;
  }
  *out += '"';
}

}  // namespace

double Value::AsNumber() const {
  if (IsInt()) return static_cast<double>(AsInt());
  if (IsReal()) return static_cast<double>(AsReal());
  if (IsDecimal()) return numeric::ToDouble(AsDecimal());
  return AsDouble();
}

std::string Value::ToString() const {
  switch (rep_.index()) {
    case 0:
      return "";
    case 1:
      return AsBool() ? "t" : "f";
    case 2:
      return std::to_string(AsInt());
    case 3: {
      double d = AsDouble();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      // Shortest round-trip digits, laid out as PostgreSQL's float8out: exponent form below
      // 1e-4 and from 1e15 (DBL_DIG) on, so 1e14 prints as 100000000000000.
      char buf[64];
      auto r = std::to_chars(buf, buf + sizeof(buf) - 1, d, std::chars_format::scientific);
      *r.ptr = '\0';
      return FormatShortest(buf, 15);
    }
    case 5:
      return numeric::ToString(AsDecimal());
    case 6:
      return datetime::ToString(AsDate());
    case 7:
      return datetime::ToString(AsTimestamp());
    case 8: {
      float f = AsReal();
      if (std::isnan(f)) return "NaN";
      if (std::isinf(f)) return f > 0 ? "Infinity" : "-Infinity";
      char buf[64];
      auto r = std::to_chars(buf, buf + sizeof(buf) - 1, f, std::chars_format::scientific);
      *r.ptr = '\0';
      return FormatShortest(buf, 6);
    }
    case 9: {  // array_out: {a,b}, NULL unquoted, elements quoted when they need it
      std::string out = "{";
      const std::vector<Value>& elements = AsArray();
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i > 0) out += ',';
        if (elements[i].IsNull()) {
          out += "NULL";
          continue;
        }
        const std::string text = elements[i].ToString();
        std::string lower = text;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        bool quote = text.empty() || lower == "null";
        for (char c : text) {
          if (c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || c == ' ' || c == '\t' ||
              c == '\n' || c == '\r' || c == '\v' || c == '\f') {
            quote = true;
          }
        }
        AppendElement(&out, text, quote, '\\');
      }
      return out + "}";
    }
    case 10:
      return datetime::ToString(AsInterval());
    case 11:
      return datetime::ToString(AsTimestampTz(), datetime::CurrentZone());
    case 12:
      return datetime::ToString(AsTime());
    case 13:
      return binary::UuidToString(AsUuid());
    case 14:
      return binary::ByteaToText(AsBytea());
    case 15: {  // record_out: (a,b), NULL empty, quoted ("" and \\ doubled) when needed
      std::string out = "(";
      const std::vector<Value>& fields = AsRecord().fields;
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ',';
        if (fields[i].IsNull()) continue;
        const std::string text = fields[i].ToString();
        bool quote = text.empty();
        for (char c : text) {
          if (c == '"' || c == '\\' || c == '(' || c == ')' || c == ',' ||
              std::isspace(static_cast<unsigned char>(c))) {
            quote = true;
          }
        }
        AppendElement(&out, text, quote, 0);
      }
      return out + ")";
    }
    default:
      return AsString();
  }
}

Value Value::Array(std::vector<Value> elements) {
  auto array = std::make_shared<ArrayValue>();
  array->elements = std::move(elements);
  return Value(Rep(std::shared_ptr<const ArrayValue>(std::move(array))));
}

Value Value::Record(std::shared_ptr<const RecordShape> shape, std::vector<Value> fields) {
  auto record = std::make_shared<RecordValue>();
  record->shape = std::move(shape);
  record->fields = std::move(fields);
  return Value(Rep(std::shared_ptr<const RecordValue>(std::move(record))));
}

const std::vector<Value>& Value::AsArray() const {
  return std::get<std::shared_ptr<const ArrayValue>>(rep_)->elements;
}

size_t Value::ByteSize() const {
  size_t n = sizeof(Value);
  if (IsString()) n += AsString().size();
  if (IsBytea()) n += AsBytea().size();
  if (IsArray()) {
    for (const Value& e : AsArray()) n += e.ByteSize();
  }
  if (IsRecord()) {
    for (const Value& f : AsRecord().fields) n += f.ByteSize();
  }
  return n;
}

bool operator==(const Value& a, const Value& b) {
  if (a.IsArray() && b.IsArray()) return a.AsArray() == b.AsArray();
  if (a.IsRecord() && b.IsRecord()) return a.AsRecord().fields == b.AsRecord().fields;
  return a.rep_ == b.rep_;
}

}  // namespace meridian
