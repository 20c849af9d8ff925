// Type rules and casts between the supported types (see type_rules.h).
#include "exec/type_rules.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace meridian::exec {

namespace {

bool IsStringLike(Type t) { return t.IsString() || t.id == TypeId::kUnknown; }

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
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
  int64_t lo = to.id == TypeId::kInteger ? std::numeric_limits<int32_t>::min()
                                         : std::numeric_limits<int64_t>::min();
  int64_t hi = to.id == TypeId::kInteger ? std::numeric_limits<int32_t>::max()
                                         : std::numeric_limits<int64_t>::max();
  if (overflow || v < lo || v > hi) {
    return Status::Error(sqlstate::kNumericValueOutOfRange,
                         "value \"" + text + "\" is out of range for type " + to.Name());
  }
  return Value::Int(static_cast<int64_t>(v));
}

Result<Value> ParseDouble(const std::string& text) {
  std::string s = Trim(text);
  std::string lower;
  for (char c : s) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "nan") return Value::Double(std::numeric_limits<double>::quiet_NaN());
  if (lower == "infinity" || lower == "+infinity" || lower == "inf" || lower == "+inf") {
    return Value::Double(std::numeric_limits<double>::infinity());
  }
  if (lower == "-infinity" || lower == "-inf") {
    return Value::Double(-std::numeric_limits<double>::infinity());
  }
  if (s.empty()) return InvalidInput(Type::Double(), text);
  char* end = nullptr;
  errno = 0;
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return InvalidInput(Type::Double(), text);
  if (errno == ERANGE && std::isinf(d)) {
    return Status::Error(sqlstate::kNumericValueOutOfRange,
                         "\"" + text + "\" is out of range for type double precision");
  }
  return Value::Double(d);
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

}  // namespace

size_t CharLength(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

Type PromoteNumeric(Type a, Type b) {
  if (a.id == TypeId::kDouble || b.id == TypeId::kDouble) return Type::Double();
  if (a.id == TypeId::kBigInt || b.id == TypeId::kBigInt) return Type::BigInt();
  return Type::Integer();
}

std::optional<Type> CommonType(Type a, Type b) {
  if (a.id == TypeId::kUnknown) return b.id == TypeId::kUnknown ? Type::Text() : b;
  if (b.id == TypeId::kUnknown) return a;
  if (a == b) return a;
  if (a.IsNumeric() && b.IsNumeric()) return PromoteNumeric(a, b);
  if (a.IsString() && b.IsString()) {
    if (a.id == TypeId::kVarchar && b.id == TypeId::kVarchar) return Type::Varchar(-1);
    return Type::Text();
  }
  return std::nullopt;
}

bool Comparable(Type a, Type b) {
  if (a.id == TypeId::kUnknown || b.id == TypeId::kUnknown) return true;
  if (a.IsNumeric() && b.IsNumeric()) return true;
  if (a.IsString() && b.IsString()) return true;
  return a.id == b.id;
}

Status CheckRange(int64_t v, Type t) {
  if (t.id == TypeId::kInteger &&
      (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "integer out of range");
  }
  return Status::Ok();
}

bool CanCast(Type from, Type to) {
  if (from.id == TypeId::kUnknown || from == to) return true;
  if (to.IsString()) return true;       // every type has a text form
  if (IsStringLike(from)) return true;  // input functions
  if (from.IsNumeric() && to.IsNumeric()) return true;
  if (from.id == TypeId::kInteger && to.id == TypeId::kBoolean) return true;
  if (from.id == TypeId::kBoolean && to.id == TypeId::kInteger) return true;
  return false;
}

bool CanAssign(Type from, Type to) {
  if (from.id == TypeId::kUnknown || from == to) return true;
  if (from.IsNumeric() && to.IsNumeric()) return true;
  if (to.IsString()) return true;  // PostgreSQL's I/O conversion casts to text are assignment
  return false;
}

Result<Value> CastValue(const Value& v, Type from, Type to, bool explicit_cast) {
  if (v.IsNull()) return Value::Null();
  switch (to.id) {
    case TypeId::kUnknown:
      return v;
    case TypeId::kInteger:
    case TypeId::kBigInt: {
      if (v.IsInt()) {
        MERIDIAN_RETURN_IF_ERROR(CheckRange(v.AsInt(), to));
        return v;
      }
      if (v.IsDouble()) {
        double d = std::rint(v.AsDouble());
        double lo = to.id == TypeId::kInteger ? -2147483648.0 : -9223372036854775808.0;
        double hi = to.id == TypeId::kInteger ? 2147483648.0 : 9223372036854775808.0;
        if (std::isnan(d) || d < lo || d >= hi) {
          return Status::Error(sqlstate::kNumericValueOutOfRange, to.Name() + " out of range");
        }
        return Value::Int(static_cast<int64_t>(d));
      }
      if (v.IsBool()) return Value::Int(v.AsBool() ? 1 : 0);
      return ParseInteger(v.AsString(), to);
    }
    case TypeId::kDouble:
      if (v.IsInt()) return Value::Double(static_cast<double>(v.AsInt()));
      if (v.IsDouble()) return v;
      if (v.IsString()) return ParseDouble(v.AsString());
      break;
    case TypeId::kBoolean:
      if (v.IsBool()) return v;
      if (v.IsInt()) return Value::Bool(v.AsInt() != 0);
      if (v.IsString()) return ParseBool(v.AsString());
      break;
    case TypeId::kText:
      return Value::String(TextOf(v));
    case TypeId::kVarchar: {
      std::string s = TextOf(v);
      if (to.modifier >= 0 && CharLength(s) > static_cast<size_t>(to.modifier)) {
        size_t keep = PrefixBytes(s, static_cast<size_t>(to.modifier));
        if (!explicit_cast) {
          // PostgreSQL silently drops excess trailing spaces; anything else is an error.
          if (s.find_first_not_of(' ', keep) != std::string::npos) {
            return Status::Error(
                sqlstate::kStringDataRightTruncation,
                "value too long for type character varying(" + std::to_string(to.modifier) + ")");
          }
        }
        s.resize(keep);
      }
      return Value::String(std::move(s));
    }
  }
  return Status::Error("42846", "cannot cast type " + from.Name() + " to " + to.Name());
}

Result<Value> AssignValue(const Value& v, Type from, Type to) {
  return CastValue(v, from, to, /*explicit_cast=*/false);
}

int CompareValues(const Value& a, const Value& b) {
  if (a.IsInt() && b.IsInt()) {
    return a.AsInt() < b.AsInt() ? -1 : (a.AsInt() > b.AsInt() ? 1 : 0);
  }
  if ((a.IsInt() || a.IsDouble()) && (b.IsInt() || b.IsDouble())) {
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
  // Mixed kinds cannot reach here after binding; order them by kind for determinism.
  auto rank = [](const Value& v) { return v.IsBool() ? 0 : (v.IsInt() || v.IsDouble()) ? 1 : 2; };
  return rank(a) - rank(b);
}

}  // namespace meridian::exec
