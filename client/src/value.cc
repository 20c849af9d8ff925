// Value text rendering (PostgreSQL output forms) and column type helpers.
#include "meridian/client/value.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace meridian::client {

bool IsNumericOid(uint32_t oid) {
  switch (oid) {
    case kOidInt8:
    case kOidInt2:
    case kOidInt4:
    case kOidOid:
    case kOidFloat4:
    case kOidFloat8:
    case kOidNumeric:
      return true;
    default:
      return false;
  }
}

std::string ColumnInfo::DisplayType() const {
  if (type_mod < 0) return type_name;
  return type_name + "(" + std::to_string(type_mod) + ")";
}

std::string FormatDouble(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d < 0 ? "-Infinity" : "Infinity";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
  std::string_view sci(buf, res.ptr - buf);
  // sci is "[-]D[.DDD]e[+-]XX": split into sign, digits and decimal exponent.
  bool negative = false;
  if (!sci.empty() && sci[0] == '-') {
    negative = true;
    sci.remove_prefix(1);
  }
  size_t epos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, epos)) {
    if (c != '.') digits.push_back(c);
  }
  int exponent = 0;
  std::string_view exp_text = sci.substr(epos + 1);
  if (!exp_text.empty() && exp_text[0] == '+') exp_text.remove_prefix(1);
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);

  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= 15) {  // PostgreSQL switches to exponent form at DBL_DIG
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1);
    }
    char ebuf[16];
    std::snprintf(ebuf, sizeof(ebuf), "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    out += ebuf;
  } else if (exponent >= 0) {
    size_t int_len = static_cast<size_t>(exponent) + 1;
    if (digits.size() <= int_len) {
      out += digits;
      out.append(int_len - digits.size(), '0');
    } else {
      out.append(digits, 0, int_len);
      out += '.';
      out.append(digits, int_len);
    }
  } else {
    out += "0.";
    out.append(static_cast<size_t>(-exponent - 1), '0');
    out += digits;
  }
  return out;
}

std::string Value::ToText() const {
  switch (kind()) {
    case Kind::kNull:
      return "";
    case Kind::kBool:
      return as_bool() ? "t" : "f";
    case Kind::kInt:
      return std::to_string(as_int());
    case Kind::kDouble:
      return FormatDouble(as_double());
    case Kind::kText:
      return as_string();
    case Kind::kBytes: {
      static constexpr char kHex[] = "0123456789abcdef";
      std::string out = "\\x";
      for (unsigned char c : as_string()) {
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
      }
      return out;
    }
  }
  return "";
}

}  // namespace meridian::client
