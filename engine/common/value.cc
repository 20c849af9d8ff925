// Type names, OIDs and the text form of values (PostgreSQL's output functions).
#include "meridian/value.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

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
  }
  return "unknown";
}

std::string Type::DisplayName() const {
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
  }
  return 705;
}

int32_t Type::PgTypmod() const {
  if (modifier < 0) return -1;
  switch (id) {
    case TypeId::kVarchar:
    case TypeId::kChar:
    case TypeId::kNumeric:
      return modifier + 4;
    case TypeId::kTimestamp:
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
    case 1184:  // timestamptz: read as timestamp without time zone
      return Timestamp();
    case 19:  // name
    case 25:
    case 1042:  // bpchar
      return Text();
    case 1043:
      return Varchar(-1);
    default:
      return std::nullopt;
  }
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
    default:
      return AsString();
  }
}

}  // namespace meridian
