// Type rules and casts between the supported types (see type_rules.h).
#include "binder/type_rules.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include "meridian/binary.h"
#include "meridian/geometry.h"
#include "meridian/json.h"

namespace meridian::exec {

namespace {

bool IsStringLike(Type t) { return t.IsString() || t.id == TypeId::kUnknown; }

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// The value range of an integer type.
std::pair<int64_t, int64_t> IntegerBounds(Type t) {
  if (t.id == TypeId::kSmallInt) {
    return {std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()};
  }
  if (t.id == TypeId::kInteger) {
    return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  }
  return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
}

Status InvalidInput(Type t, const std::string& text) {
  return Status::Error(sqlstate::kInvalidTextRepresentation,
                       "invalid input syntax for type " + t.Name() + ": \"" + text + "\"");
}

Result<Value> ParseInteger(const std::string& text, Type to) {
  std::string s = Trim(text);
  if (s.empty()) return InvalidInput(to, text);
  size_t i = 0;
  bool neg = false;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    i = 1;
  }
  if (i == s.size()) return InvalidInput(to, text);
  __int128 v = 0;
  bool overflow = false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return InvalidInput(to, text);
    v = v * 10 + (s[i] - '0');
    if (v > (static_cast<__int128>(1) << 64)) overflow = true;
  }
  if (neg) v = -v;
  const auto [lo, hi] = IntegerBounds(to);
  if (overflow || v < lo || v > hi) {
    return Status::Error(sqlstate::kNumericValueOutOfRange,
                         "value \"" + text + "\" is out of range for type " + to.Name());
  }
  return Value::Int(static_cast<int64_t>(v));
}

// float8in, or float4in for real (a value outside float's range is 22003, as PostgreSQL).
Result<Value> ParseDouble(const std::string& text, Type to = Type::Double()) {
  std::string s = Trim(text);
  std::string lower;
  for (char c : s) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  const bool real = to.id == TypeId::kReal;
  auto make = [real](double d) {
    return real ? Value::Real(static_cast<float>(d)) : Value::Double(d);
  };
  if (lower == "nan") return make(std::numeric_limits<double>::quiet_NaN());
  if (lower == "infinity" || lower == "+infinity" || lower == "inf" || lower == "+inf") {
    return make(std::numeric_limits<double>::infinity());
  }
  if (lower == "-infinity" || lower == "-inf") {
    return make(-std::numeric_limits<double>::infinity());
  }
  if (s.empty()) return InvalidInput(to, text);
  char* end = nullptr;
  errno = 0;
  double d = real ? std::strtof(s.c_str(), &end) : std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return InvalidInput(to, text);
  if (errno == ERANGE && (std::isinf(d) || d == 0)) {
    return Status::Error(sqlstate::kNumericValueOutOfRange,
                         "\"" + text + "\" is out of range for type " + to.Name());
  }
  return make(d);
}

Result<Value> ParseBool(const std::string& text) {
  std::string s = Trim(text);
  std::string l;
  for (char c : s) l.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  auto prefix_of = [&](const char* word) {
    return !l.empty() && std::strncmp(word, l.c_str(), l.size()) == 0;
  };
  if (l == "1" || l == "on" || prefix_of("true") || prefix_of("yes")) return Value::Bool(true);
  if (l == "0" || l == "off" || l == "of" || prefix_of("false") || prefix_of("no")) {
    if (l != "o") return Value::Bool(false);
  }
  return InvalidInput(Type::Boolean(), text);
}

// Byte length of the first n characters of s.
size_t PrefixBytes(const std::string& s, size_t n) {
  size_t i = 0;
  for (size_t c = 0; c < n && i < s.size(); ++c) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

std::string TextOf(const Value& v) {
  if (v.IsBool()) return v.AsBool() ? "true" : "false";
  return v.ToString();
}

// bpchar → text/varchar drops the trailing blanks (PostgreSQL's rtrim1).
std::string StripBlanks(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

Status OutOfRangeFor(Type t) {
  return Status::Error(sqlstate::kNumericValueOutOfRange, t.Name() + " out of range");
}

// Any number value as Numeric (ints exactly, floats by their 15/6-digit decimal form).
Result<Numeric> NumberToNumeric(const Value& v) {
  if (v.IsDecimal()) return v.AsDecimal();
  if (v.IsInt()) return numeric::FromInt(v.AsInt());
  if (v.IsReal()) {
    const float f = v.AsReal();
    if (std::isnan(f) || std::isinf(f)) return numeric::FromDouble(f);
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.6g", static_cast<double>(f));  // FLT_DIG digits
    return numeric::Parse(buf);
  }
  if (v.IsDouble()) return numeric::FromDouble(v.AsDouble());
  if (v.IsBool()) return numeric::FromInt(v.AsBool() ? 1 : 0);
  return numeric::Parse(v.AsString());
}

// float8 → float4 with PostgreSQL's overflow/underflow errors.
Result<Value> ToReal(double d) {
  const float f = static_cast<float>(d);
  if (std::isinf(f) && !std::isinf(d)) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "value out of range: overflow");
  }
  if (f == 0 && d != 0) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "value out of range: underflow");
  }
  return Value::Real(f);
}

}  // namespace

// array_in for one-dimensional arrays: `{a, "b c", NULL}` (whitespace around elements
// ignored, double quotes and backslashes escape, unquoted NULL is NULL); each element goes
// through the element type's input. A nested `{` (more dimensions) or explicit bounds
// (`[1:2]={...}`) is 0A000; anything else malformed 22P02, as PostgreSQL words it.
Result<Value> ParseArray(const std::string& text, Type to, bool explicit_cast) {
  auto malformed = [&](const std::string& detail) {
    return Status::Error(sqlstate::kInvalidTextRepresentation,
                         "malformed array literal: \"" + text + "\"")
        .WithDetail(detail);
  };
  size_t i = 0;
  const size_t n = text.size();
  auto skip_space = [&] {
    while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  skip_space();
  if (i < n && text[i] == '[') {
    return Status::NotSupported("array bounds in array literals are not supported yet");
  }
  if (i >= n || text[i] != '{') {
    return malformed("Array value must start with \"{\" or dimension information.");
  }
  ++i;
  std::vector<Value> out;
  skip_space();
  if (i < n && text[i] == '}') {
    ++i;
  } else {
    while (true) {
      skip_space();
      if (i >= n) return malformed("Unexpected end of input.");
      if (text[i] == '{')
        return Status::NotSupported("multidimensional arrays are not supported yet");
      std::string element;
      bool quoted = false;
      if (text[i] == '"') {
        quoted = true;
        ++i;
        while (i < n && text[i] != '"') {
          if (text[i] == '\\' && i + 1 < n) ++i;
          element.push_back(text[i++]);
        }
        if (i >= n) return malformed("Unexpected end of input.");
        ++i;
        skip_space();
      } else {
        size_t last_kept = 0;  // element length up to its last non-blank (or escaped) char
        while (i < n && text[i] != ',' && text[i] != '}') {
          if (text[i] == '{' || text[i] == '"') return malformed("Unexpected array element.");
          if (text[i] == '\\' && i + 1 < n) {
            element.push_back(text[i + 1]);
            i += 2;
            last_kept = element.size();
            continue;
          }
          element.push_back(text[i]);
          if (!std::isspace(static_cast<unsigned char>(text[i]))) last_kept = element.size();
          ++i;
        }
        element.resize(last_kept);
        if (element.empty())
          return malformed("Unexpected \"" + std::string(1, i < n ? text[i] : ' ') +
                           "\" character.");
      }
      std::string lower = element;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!quoted && lower == "null") {
        out.push_back(Value::Null());
      } else {
        MERIDIAN_ASSIGN_OR_RETURN(
            Value v, CastValue(Value::String(element), Type::Text(), to.Element(), explicit_cast));
        out.push_back(std::move(v));
      }
      if (i >= n) return malformed("Unexpected end of input.");
      if (text[i] == '}') {
        ++i;
        break;
      }
      ++i;  // ','
    }
  }
  skip_space();
  if (i != n) return malformed("Junk after closing right brace.");
  return Value::Array(std::move(out));
}

Result<Numeric> ToNumericValue(const Value& v) { return NumberToNumeric(v); }

size_t CharLength(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

Type PromoteNumeric(Type a, Type b) {
  if (a.id == TypeId::kReal && b.id == TypeId::kReal) return Type::Real();
  if (a.IsFloat() || b.IsFloat()) return Type::Double();
  if (a.id == TypeId::kNumeric || b.id == TypeId::kNumeric) return Type::Numeric();
  if (a.id == TypeId::kBigInt || b.id == TypeId::kBigInt) return Type::BigInt();
  if (a.id == TypeId::kSmallInt && b.id == TypeId::kSmallInt) return Type::SmallInt();
  return Type::Integer();
}

namespace {

// The common type of two number types (CASE, UNION): PostgreSQL's implicit casts run
// smallint → integer → bigint → numeric → real → double precision.
int NumericRank(Type t) {
  switch (t.id) {
    case TypeId::kSmallInt:
      return 1;
    case TypeId::kInteger:
      return 2;
    case TypeId::kBigInt:
      return 3;
    case TypeId::kNumeric:
      return 4;
    case TypeId::kReal:
      return 5;
    default:
      return 6;
  }
}

}  // namespace

std::optional<Type> CommonType(Type a, Type b) {
  if (a.id == TypeId::kUnknown) return b.id == TypeId::kUnknown ? Type::Text() : b;
  if (b.id == TypeId::kUnknown) return a;
  if (a == b) return a;
  if (a.IsArray() || b.IsArray()) {
    if (!a.IsArray() || !b.IsArray()) return std::nullopt;
    std::optional<Type> e = CommonType(a.Element(), b.Element());
    if (!e) return std::nullopt;
    return Type::Array(*e);
  }
  if (a.IsNumeric() && b.IsNumeric()) {
    if (a.id == b.id) return Type{a.id, -1};
    Type t = NumericRank(a) >= NumericRank(b) ? a : b;
    return Type{t.id, -1};
  }
  if (a.IsString() && b.IsString()) {
    if (a.id == b.id) return Type{a.id, -1};
    return Type::Text();
  }
  if (a.IsDateTime() && b.IsDateTime()) {
    if (a.id == TypeId::kTimestampTz || b.id == TypeId::kTimestampTz) return Type::TimestampTz();
    return Type::Timestamp();
  }
  if (a.id == b.id) return Type{a.id, -1};  // time(p), time(q)
  return std::nullopt;
}

bool Comparable(Type a, Type b) {
  if (a.id == TypeId::kUnknown || b.id == TypeId::kUnknown) return true;
  if (a.IsArray() || b.IsArray()) {
    return a.IsArray() && b.IsArray() && Comparable(a.Element(), b.Element());
  }
  if (a.IsNumeric() && b.IsNumeric()) return true;
  if (a.IsString() && b.IsString()) return true;
  if (a.IsDateTime() && b.IsDateTime()) return true;
  if (a.id == TypeId::kJson) return false;   // json has no equality or ordering operators
  if (a.id == TypeId::kPoint) return false;  // nor has point (box compares areas: bind_geometry)
  // Records compare as record_eq / record_cmp (CompareRecords), their fields checked when
  // compared.
  return a.id == b.id;
}

bool NoEqualityType(Type t) { return t.id == TypeId::kJson || t.IsGeometric(); }

Status NoEquality(const Type& t, uint32_t position) {
  return Status::Error(sqlstate::kUndefinedFunction,
                       "could not identify an equality operator for type " + t.Name())
      .WithPosition(position);
}

Status CheckRange(int64_t v, Type t) {
  const auto [lo, hi] = IntegerBounds(t);
  if (t.IsIntegral() && (v < lo || v > hi)) return OutOfRangeFor(t);
  return Status::Ok();
}

bool CanCast(Type from, Type to) {
  if (from.id == TypeId::kUnknown || from == to) return true;
  if (from.IsArray() && to.IsArray()) return CanCast(from.Element(), to.Element());
  if (to.IsArray()) return IsStringLike(from);  // array input: '{1,2}'::int[]
  if (to.IsString()) return true;               // every type has a text form
  if (IsStringLike(from)) return true;          // input functions
  if (from.IsNumeric() && to.IsNumeric()) return true;
  if (from.IsDateTime() && to.IsDateTime()) return true;
  if (to.id == TypeId::kTime && (from.id == TypeId::kTimestamp || from.id == TypeId::kTimestampTz ||
                                 from.id == TypeId::kInterval)) {
    return true;
  }
  if (from.id == TypeId::kTime && to.id == TypeId::kInterval) return true;
  if (from.id == TypeId::kInteger && to.id == TypeId::kBoolean) return true;
  if (from.id == TypeId::kBoolean && to.id == TypeId::kInteger) return true;
  if (from.IsJson() && to.IsJson()) return true;
  if (from.id == TypeId::kJsonb && (to.IsNumeric() || to.id == TypeId::kBoolean)) return true;
  return false;
}

bool CanAssign(Type from, Type to) {
  if (from.id == TypeId::kUnknown || from == to) return true;
  if (from.IsArray() && to.IsArray()) return CanAssign(from.Element(), to.Element());
  if (from.IsArray() || to.IsArray()) return to.IsString();
  if (from.IsNumeric() && to.IsNumeric()) return true;
  if (from.IsDateTime() && to.IsDateTime()) return true;
  if (to.id == TypeId::kTime && (from.id == TypeId::kTimestamp || from.id == TypeId::kTimestampTz ||
                                 from.id == TypeId::kInterval)) {
    return true;
  }
  if (from.id == TypeId::kTime && to.id == TypeId::kInterval) return true;
  if (from.id == to.id) return true;  // time(p) from time
  if (from.IsJson() && to.IsJson()) return true;
  if (to.IsString()) return true;  // PostgreSQL's I/O conversion casts to text are assignment
  return false;
}

Result<Value> CastValue(const Value& v, Type from, Type to, bool explicit_cast) {
  if (v.IsNull()) return Value::Null();
  if (to.IsArray()) {
    if (v.IsArray()) {  // element by element
      std::vector<Value> out;
      out.reserve(v.AsArray().size());
      for (const Value& e : v.AsArray()) {
        MERIDIAN_ASSIGN_OR_RETURN(Value c,
                                  CastValue(e, from.Element(), to.Element(), explicit_cast));
        out.push_back(std::move(c));
      }
      return Value::Array(std::move(out));
    }
    if (v.IsString()) return ParseArray(v.AsString(), to, explicit_cast);
    return Status::Error(sqlstate::kCannotCoerce,
                         "cannot cast type " + from.Name() + " to " + to.Name());
  }
  if (from.id == TypeId::kJsonb && (to.IsNumeric() || to.id == TypeId::kBoolean) && v.IsString()) {
    return JsonbToScalar(v.AsString(), to, explicit_cast);
  }
  switch (to.id) {
    case TypeId::kArray:  // handled above
      break;
    case TypeId::kRecord:  // only a record itself: anonymous record input is PostgreSQL's 0A000
      if (from.id == TypeId::kRecord) return v;
      return Status::NotSupported("input of anonymous composite types is not implemented");
    case TypeId::kJson:
    case TypeId::kJsonb: {
      const bool jsonb = to.id == TypeId::kJsonb;
      if (from.id == to.id) return v;
      if (v.IsString() && (from.IsJson() || IsStringLike(from))) {
        if (!jsonb) {
          if (from.id == TypeId::kJsonb) return v;  // jsonb's text is valid json
          MERIDIAN_RETURN_IF_ERROR(json::Validate(v.AsString()));
          return v;
        }
        MERIDIAN_ASSIGN_OR_RETURN(json::Node n, json::Parse(v.AsString(), true));
        return Value::String(json::ToJsonb(n));
      }
      // Any other type: to_json's conversion (only the binder's to_json calls reach here).
      return Value::String(ToJsonText(v, from, jsonb));
    }
    case TypeId::kUnknown:
      return v;
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt: {
      if (v.IsInt()) {
        MERIDIAN_RETURN_IF_ERROR(CheckRange(v.AsInt(), to));
        return v;
      }
      if (v.IsDouble() || v.IsReal()) {
        const double d = std::rint(v.AsNumber());
        const auto [lo, hi] = IntegerBounds(to);
        // hi + 1 is exact in double for every integer type; compare below it.
        if (std::isnan(d) || d < static_cast<double>(lo) || d >= -static_cast<double>(lo)) {
          return OutOfRangeFor(to);
        }
        (void)hi;
        return Value::Int(static_cast<int64_t>(d));
      }
      if (v.IsDecimal()) {
        const auto [lo, hi] = IntegerBounds(to);
        MERIDIAN_ASSIGN_OR_RETURN(int64_t i, numeric::ToInt(v.AsDecimal(), lo, hi, to.Name()));
        return Value::Int(i);
      }
      if (v.IsBool()) return Value::Int(v.AsBool() ? 1 : 0);
      if (v.IsString()) return ParseInteger(v.AsString(), to);
      break;
    }
    case TypeId::kDouble:
      if (v.IsDouble()) return v;
      if (v.IsNumber()) return Value::Double(v.AsNumber());
      if (v.IsString()) return ParseDouble(v.AsString());
      break;
    case TypeId::kReal:
      if (v.IsReal()) return v;
      if (v.IsDouble()) {
        if (std::isnan(v.AsDouble()) || std::isinf(v.AsDouble())) {
          return Value::Real(static_cast<float>(v.AsDouble()));
        }
        return ToReal(v.AsDouble());
      }
      if (v.IsNumber()) return ToReal(v.AsNumber());
      if (v.IsString()) return ParseDouble(v.AsString(), to);
      break;
    case TypeId::kNumeric:
      if (v.IsNumber() || v.IsString()) {
        MERIDIAN_ASSIGN_OR_RETURN(Numeric n, NumberToNumeric(v));
        MERIDIAN_ASSIGN_OR_RETURN(n, numeric::ApplyTypmod(n, to.modifier));
        return Value::Decimal(n);
      }
      break;
    case TypeId::kDate:
      if (v.IsDate()) return v;
      if (v.IsTimestamp()) return Value::DateVal(datetime::ToDate(v.AsTimestamp()));
      if (v.IsTimestampTz()) {
        return Value::DateVal(
            datetime::ToDate(datetime::ToLocal(v.AsTimestampTz(), datetime::CurrentZone())));
      }
      if (v.IsString()) {
        MERIDIAN_ASSIGN_OR_RETURN(Date d, datetime::ParseDate(v.AsString()));
        return Value::DateVal(d);
      }
      break;
    case TypeId::kTimestamp: {
      Timestamp t;
      if (v.IsTimestamp()) {
        t = v.AsTimestamp();
      } else if (v.IsTimestampTz()) {
        t = datetime::ToLocal(v.AsTimestampTz(), datetime::CurrentZone());
      } else if (v.IsDate()) {
        MERIDIAN_ASSIGN_OR_RETURN(t, datetime::CheckedToTimestamp(v.AsDate()));
      } else if (v.IsString()) {
        MERIDIAN_ASSIGN_OR_RETURN(t, datetime::ParseTimestamp(v.AsString()));
      } else {
        break;
      }
      if (to.modifier >= 0) {
        MERIDIAN_ASSIGN_OR_RETURN(t, datetime::RoundTimestamp(t, to.modifier));
      }
      return Value::TimestampVal(t);
    }
    case TypeId::kTimestampTz: {
      const datetime::TimeZone& zone = datetime::CurrentZone();
      TimestampTz t;
      if (v.IsTimestampTz()) {
        t = v.AsTimestampTz();
      } else if (v.IsTimestamp()) {
        MERIDIAN_ASSIGN_OR_RETURN(t, datetime::FromLocal(v.AsTimestamp(), zone));
      } else if (v.IsDate()) {
        MERIDIAN_ASSIGN_OR_RETURN(Timestamp local, datetime::CheckedToTimestamp(v.AsDate()));
        MERIDIAN_ASSIGN_OR_RETURN(t, datetime::FromLocal(local, zone));
      } else if (v.IsString()) {
        MERIDIAN_ASSIGN_OR_RETURN(t, datetime::ParseTimestampTz(v.AsString(), zone));
      } else {
        break;
      }
      if (to.modifier >= 0) {
        MERIDIAN_ASSIGN_OR_RETURN(Timestamp r,
                                  datetime::RoundTimestamp(Timestamp{t.micros}, to.modifier));
        t.micros = r.micros;
      }
      return Value::TimestampTzVal(t);
    }
    case TypeId::kInterval:
      if (v.IsInterval()) return v;
      if (v.IsTime()) return Value::IntervalVal(Interval{0, 0, v.AsTime().micros});
      if (v.IsString()) {
        MERIDIAN_ASSIGN_OR_RETURN(Interval i, datetime::ParseInterval(v.AsString()));
        return Value::IntervalVal(i);
      }
      break;
    case TypeId::kTime: {
      TimeOfDay t;
      if (v.IsTime()) {
        t = v.AsTime();
      } else if (v.IsTimestamp() || v.IsTimestampTz()) {
        const Timestamp local = v.IsTimestamp()
                                    ? v.AsTimestamp()
                                    : datetime::ToLocal(v.AsTimestampTz(), datetime::CurrentZone());
        if (!datetime::IsFinite(local)) break;
        t.micros = local.micros - datetime::FloorDiv(local.micros, datetime::kMicrosPerDay) *
                                      datetime::kMicrosPerDay;
      } else if (v.IsInterval()) {  // interval_time: the micros modulo a day
        t.micros = v.AsInterval().micros % datetime::kMicrosPerDay;
        if (t.micros < 0) t.micros += datetime::kMicrosPerDay;
      } else if (v.IsString()) {
        MERIDIAN_ASSIGN_OR_RETURN(t, datetime::ParseTime(v.AsString()));
      } else {
        break;
      }
      MERIDIAN_ASSIGN_OR_RETURN(t, datetime::RoundTime(t, to.modifier));
      return Value::TimeVal(t);
    }
    case TypeId::kUuid:
      if (v.IsUuid()) return v;
      if (v.IsString()) {
        MERIDIAN_ASSIGN_OR_RETURN(Uuid u, binary::ParseUuid(v.AsString()));
        return Value::UuidVal(u);
      }
      break;
    case TypeId::kPoint:
    case TypeId::kBox:
      if (from.id == to.id) return v;
      if (v.IsString() && IsStringLike(from)) {
        if (to.id == TypeId::kPoint) {
          MERIDIAN_ASSIGN_OR_RETURN(geo::Point p, geo::ParsePoint(v.AsString()));
          return Value::String(geo::FormatPoint(p));
        }
        MERIDIAN_ASSIGN_OR_RETURN(geo::Box b, geo::ParseBox(v.AsString()));
        return Value::String(geo::FormatBox(b));
      }
      break;
    case TypeId::kBytea:
      if (v.IsBytea()) return v;
      if (v.IsString()) {
        MERIDIAN_ASSIGN_OR_RETURN(std::string bytes, binary::ParseBytea(v.AsString()));
        return Value::ByteaVal(std::move(bytes));
      }
      break;
    case TypeId::kBoolean:
      if (v.IsBool()) return v;
      if (v.IsInt()) return Value::Bool(v.AsInt() != 0);
      if (v.IsString()) return ParseBool(v.AsString());
      break;
    case TypeId::kText:
      if (from.id == TypeId::kChar) return Value::String(StripBlanks(TextOf(v)));
      if (from.IsVector() && v.IsArray()) {  // int2vector / oidvector print "1 3"
        std::string out;
        for (const Value& e : v.AsArray()) out += (out.empty() ? "" : " ") + e.ToString();
        return Value::String(std::move(out));
      }
      return Value::String(TextOf(v));
    case TypeId::kVarchar:
    case TypeId::kChar: {
      std::string s = TextOf(v);
      if (from.id == TypeId::kChar && to.id == TypeId::kVarchar) s = StripBlanks(std::move(s));
      size_t length = CharLength(s);
      if (to.modifier >= 0 && length > static_cast<size_t>(to.modifier)) {
        size_t keep = PrefixBytes(s, static_cast<size_t>(to.modifier));
        if (!explicit_cast) {
          // PostgreSQL silently drops excess trailing spaces; anything else is an error.
          if (s.find_first_not_of(' ', keep) != std::string::npos) {
            return Status::Error(sqlstate::kStringDataRightTruncation,
                                 "value too long for type " + to.DisplayName());
          }
        }
        s.resize(keep);
        length = static_cast<size_t>(to.modifier);
      }
      if (to.id == TypeId::kChar && to.modifier >= 0) {  // bpchar(n) is blank-padded to n
        s.append(static_cast<size_t>(to.modifier) - length, ' ');
      }
      return Value::String(std::move(s));
    }
  }
  return Status::Error(sqlstate::kCannotCoerce,
                       "cannot cast type " + from.Name() + " to " + to.Name());
}

std::string ToJsonText(const Value& v, Type from, bool jsonb) {
  if (v.IsNull()) return "null";
  if (from.IsJson()) {
    if (from.id == TypeId::kJson && jsonb) {
      auto n = json::Parse(v.AsString(), true);
      if (n.ok()) return json::ToJsonb(*n);
    }
    return v.AsString();
  }
  if (v.IsArray()) {
    std::string out = "[";
    bool first = true;
    for (const Value& e : v.AsArray()) {
      if (!first) out += jsonb ? ", " : ",";
      first = false;
      out += ToJsonText(e, from.Element(), jsonb);
    }
    return out + "]";
  }
  if (v.IsRecord()) {  // row_to_json: an object of the fields, in order, under their names
    const RecordValue& r = v.AsRecord();
    std::string out = "{";
    for (size_t i = 0; i < r.fields.size(); ++i) {
      if (i > 0) out += ',';
      out += json::Quoted(r.shape->names[i]) + ':';
      out += ToJsonText(r.fields[i], r.shape->types[i], false);
    }
    out += '}';
    if (!jsonb) return out;
    auto n = json::Parse(out, true);
    return n.ok() ? json::ToJsonb(*n) : out;
  }
  if (v.IsBool()) return v.AsBool() ? "true" : "false";
  if (v.IsNumber()) {
    std::string s = v.ToString();
    // NaN and the infinities are no JSON numbers: strings, as PostgreSQL writes them.
    if (s == "NaN" || s == "Infinity" || s == "-Infinity") return json::Quoted(s);
    return jsonb ? json::NormalizeNumber(s) : s;
  }
  std::string s = v.ToString();
  if ((v.IsTimestamp() || v.IsTimestampTz()) && s.size() > 10 && s[10] == ' ') {
    s[10] = 'T';  // ISO 8601, as PostgreSQL's JSON output of timestamps
    if (v.IsTimestampTz()) {
      // A zone offset of whole hours gains its minutes: +02 -> +02:00.
      const size_t sign = s.find_last_of("+-");
      if (sign != std::string::npos && sign > 10 && s.size() - sign == 3) s += ":00";
    }
  }
  return json::Quoted(s);
}

Result<Value> JsonbToScalar(const std::string& text, Type to, bool explicit_cast) {
  MERIDIAN_ASSIGN_OR_RETURN(json::Node n, json::Parse(text, true));
  const bool want_bool = to.id == TypeId::kBoolean;
  const bool ok = want_bool ? (n.kind == json::Node::kTrue || n.kind == json::Node::kFalse)
                            : n.kind == json::Node::kNumber;
  if (!ok) {
    const char* what = n.kind == json::Node::kObject   ? "object"
                       : n.kind == json::Node::kArray  ? "array"
                       : n.kind == json::Node::kString ? "string"
                       : n.kind == json::Node::kNull   ? "null"
                       : n.kind == json::Node::kNumber ? "numeric"
                                                       : "boolean";
    return Status::Error(sqlstate::kInvalidParameterValue,
                         std::string("cannot cast jsonb ") + what + " to type " + to.Name());
  }
  if (want_bool) return Value::Bool(n.kind == json::Node::kTrue);
  if (to.IsFloat()) return CastValue(Value::String(n.text), Type::Text(), to, explicit_cast);
  MERIDIAN_ASSIGN_OR_RETURN(Numeric x, numeric::Parse(n.text));
  return CastValue(Value::Decimal(x), Type::Numeric(), to, explicit_cast);
}

Result<Value> AssignValue(const Value& v, Type from, Type to) {
  return CastValue(v, from, to, /*explicit_cast=*/false);
}

Result<int> CompareRecords(const Value& a, const Value& b, bool ordering) {
  const RecordValue& x = a.AsRecord();
  const RecordValue& y = b.AsRecord();
  const size_t n = std::min(x.fields.size(), y.fields.size());
  for (size_t i = 0; i < n; ++i) {
    const Type tx = x.shape->types[i], ty = y.shape->types[i];
    const bool same = tx.IsArray() ? (ty.IsArray() && tx.Element().id == ty.Element().id)
                                   : (!ty.IsArray() && tx.id == ty.id);
    if (!same) {
      return Status::Error(sqlstate::kDatatypeMismatch,
                           "cannot compare dissimilar column types " + tx.Name() + " and " +
                               ty.Name() + " at record column " + std::to_string(i + 1));
    }
    if (NoEqualityType(tx)) {
      return Status::Error(sqlstate::kUndefinedFunction,
                           std::string(ordering ? "could not identify a comparison function"
                                                : "could not identify an equality operator") +
                               " for type " + tx.Name());
    }
    const Value& f = x.fields[i];
    const Value& g = y.fields[i];
    if (f.IsNull() || g.IsNull()) {
      if (f.IsNull() != g.IsNull()) return f.IsNull() ? 1 : -1;
      continue;
    }
    int c = 0;
    if (f.IsRecord() && g.IsRecord()) {
      MERIDIAN_ASSIGN_OR_RETURN(c, CompareRecords(f, g, ordering));
    } else {
      c = CompareValues(f, g);
    }
    if (c != 0) return c;
  }
  if (x.fields.size() != y.fields.size()) {
    return Status::Error(sqlstate::kDatatypeMismatch,
                         "cannot compare record types with different numbers of columns");
  }
  return 0;
}

int CompareValues(const Value& a, const Value& b) {
  if ((a.IsArray() && b.IsArray()) || (a.IsRecord() && b.IsRecord())) {
    // PostgreSQL's array_cmp and record_cmp: element by element (NULL above every value and
    // equal to NULL), then the shorter first.
    const std::vector<Value>& x = a.IsArray() ? a.AsArray() : a.AsRecord().fields;
    const std::vector<Value>& y = b.IsArray() ? b.AsArray() : b.AsRecord().fields;
    for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
      if (x[i].IsNull() || y[i].IsNull()) {
        if (x[i].IsNull() != y[i].IsNull()) return x[i].IsNull() ? 1 : -1;
        continue;
      }
      const int c = CompareValues(x[i], y[i]);
      if (c != 0) return c;
    }
    return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
  }
  if (a.IsInt() && b.IsInt()) {
    return a.AsInt() < b.AsInt() ? -1 : (a.AsInt() > b.AsInt() ? 1 : 0);
  }
  if ((a.IsDecimal() || a.IsInt()) && (b.IsDecimal() || b.IsInt())) {
    return numeric::Compare(a.IsInt() ? numeric::FromInt(a.AsInt()) : a.AsDecimal(),
                            b.IsInt() ? numeric::FromInt(b.AsInt()) : b.AsDecimal());
  }
  if ((a.IsDate() || a.IsTimestamp()) && (b.IsDate() || b.IsTimestamp())) {
    if (a.IsDate() && b.IsDate()) {
      return a.AsDate().days < b.AsDate().days ? -1 : (a.AsDate().days > b.AsDate().days ? 1 : 0);
    }
    const int64_t x =
        a.IsDate() ? datetime::ToTimestamp(a.AsDate()).micros : a.AsTimestamp().micros;
    const int64_t y =
        b.IsDate() ? datetime::ToTimestamp(b.AsDate()).micros : b.AsTimestamp().micros;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.IsTimestampTz() && b.IsTimestampTz()) {
    const int64_t x = a.AsTimestampTz().micros, y = b.AsTimestampTz().micros;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.IsTime() && b.IsTime()) {
    const int64_t x = a.AsTime().micros, y = b.AsTime().micros;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.IsInterval() && b.IsInterval())
    return datetime::CompareIntervals(a.AsInterval(), b.AsInterval());
  if (a.IsNumber() && b.IsNumber()) {
    double x = a.AsNumber(), y = b.AsNumber();
    // PostgreSQL orders NaN above every other value and equal to itself.
    bool xn = std::isnan(x), yn = std::isnan(y);
    if (xn || yn) return xn == yn ? 0 : (xn ? 1 : -1);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.IsString() && b.IsString()) {
    int c = a.AsString().compare(b.AsString());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  if (a.IsBool() && b.IsBool()) return static_cast<int>(a.AsBool()) - static_cast<int>(b.AsBool());
  if (a.IsUuid() && b.IsUuid()) {  // uuid_cmp: memcmp of the 16 bytes
    const auto& x = a.AsUuid().bytes;
    const auto& y = b.AsUuid().bytes;
    return x < y ? -1 : (y < x ? 1 : 0);
  }
  if (a.IsBytea() && b.IsBytea()) {  // byteacmp: memcmp, then the shorter first
    const int c = a.AsBytea().compare(b.AsBytea());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  // Mixed kinds cannot reach here after binding; order them by kind for determinism.
  auto rank = [](const Value& v) {
    return v.IsBool()                                             ? 0
           : v.IsNumber()                                         ? 1
           : (v.IsDate() || v.IsTimestamp() || v.IsTimestampTz()) ? 2
           : (v.IsInterval() || v.IsTime())                       ? 3
           : v.IsUuid()                                           ? 5
           : v.IsBytea()                                          ? 6
                                                                  : 4;
  };
  return rank(a) - rank(b);
}

}  // namespace meridian::exec
