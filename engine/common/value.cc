// Type names, OIDs and the text form of values (PostgreSQL's output functions).
#include "meridian/value.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "meridian/binary.h"

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
      return 705;
    case TypeId::kBoolean:
      return 16;
    case TypeId::kInteger:
      return 23;
    case TypeId::kBigInt:
      return 20;
    case TypeId::kDouble:
      return 701;
    case TypeId::kText:
      return 25;
    case TypeId::kVarchar:
      return 1043;
    case TypeId::kSmallInt:
      return 21;
    case TypeId::kReal:
      return 700;
    case TypeId::kChar:
      return 1042;
    case TypeId::kNumeric:
      return 1700;
    case TypeId::kDate:
      return 1082;
    case TypeId::kTimestamp:
      return 1114;
    case TypeId::kTimestampTz:
      return 1184;
    case TypeId::kInterval:
      return 1186;
    case TypeId::kTime:
      return 1083;
    case TypeId::kUuid:
      return 2950;
    case TypeId::kBytea:
      return 17;
    case TypeId::kJson:
      return 114;
    case TypeId::kJsonb:
      return 3802;
    case TypeId::kPoint:
      return 600;
    case TypeId::kBox:
      return 603;
    case TypeId::kRecord:
      return 2249;
    case TypeId::kArray:
      if (IsVector()) return element == TypeId::kSmallInt ? 22 : 30;
      switch (element) {  // pg_type.typarray of the element type
        case TypeId::kBoolean:
          return 1000;
        case TypeId::kSmallInt:
          return 1005;
        case TypeId::kInteger:
          return 1007;
        case TypeId::kBigInt:
          return 1016;
        case TypeId::kReal:
          return 1021;
        case TypeId::kDouble:
          return 1022;
        case TypeId::kChar:
          return 1014;
        case TypeId::kVarchar:
          return 1015;
        case TypeId::kDate:
          return 1182;
        case TypeId::kTimestamp:
          return 1115;
        case TypeId::kTimestampTz:
          return 1185;
        case TypeId::kInterval:
          return 1187;
        case TypeId::kTime:
          return 1183;
        case TypeId::kUuid:
          return 2951;
        case TypeId::kBytea:
          return 1001;
        case TypeId::kJson:
          return 199;
        case TypeId::kJsonb:
          return 3807;
        case TypeId::kPoint:
          return 1017;
        case TypeId::kBox:
          return 1020;
        case TypeId::kNumeric:
          return 1231;
        default:
          return 1009;  // text[] (an array of unknown literals resolves to text[])
      }
  }
  return 705;
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
    case 705:  // unknown
      return Unknown();
    case 16:
      return Boolean();
    case 21:
      return SmallInt();
    case 23:
      return Integer();
    case 20:
      return BigInt();
    case 700:
      return Real();
    case 701:
      return Double();
    case 1700:
      return Numeric();
    case 1082:
      return Date();
    case 1114:
      return Timestamp();
    case 1184:
      return TimestampTz();
    case 1186:
      return Interval();
    case 1083:
      return Time();
    case 2950:
      return Uuid();
    case 17:
      return Bytea();
    case 114:
      return Json();
    case 3802:
      return Jsonb();
    case 600:
      return Point();
    case 603:
      return Box();
    case 19:  // name
    case 25:
    case 1042:  // bpchar
      return Text();
    case 1043:
      return Varchar(-1);
    default:
      break;
  }
  // One-dimensional arrays of those (a client's list parameter, `x = ANY($1)`): the element
  // type's, read from the text form '{...}' like a cast.
  struct ArrayOid {
    uint32_t oid;
    uint32_t element;
  };
  static constexpr ArrayOid kArrays[] = {{1000, 16},  {1005, 21},   {1007, 23},  {1016, 20},
                                         {1021, 700}, {1022, 701},  {1231, 1700}, {1182, 1082},
                                         {1115, 1114}, {1185, 1184}, {1009, 25},  {1015, 1043},
                                         {1014, 1042}, {1187, 1186}, {1183, 1083},
                                         {2951, 2950}, {1001, 17}, {199, 114}, {3807, 3802}};
  for (const ArrayOid& a : kArrays) {
    if (a.oid == oid) return Array(*FromParamOid(a.element));
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
