// sqllogictest value formatting, sorting and hashing (see slt_format.h).
#include "runner/slt_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <regex>

#include "runner/md5.h"

namespace meridian::slt {

using client::Value;

namespace {

int64_t TruncateToInt(double d) {
  if (std::isnan(d)) return 0;
  if (d >= static_cast<double>(std::numeric_limits<int64_t>::max())) {
    return std::numeric_limits<int64_t>::max();
  }
  if (d <= static_cast<double>(std::numeric_limits<int64_t>::min())) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(d);
}

std::string FormatReal(double d) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%.3f", d);
  return buf;
}

std::string FormatText(const std::string& text) {
  if (text.empty()) return "(empty)";
  std::string out = text;
  for (char& c : out) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7e) c = '@';
  }
  return out;
}

}  // namespace

std::string FormatSltValue(const Value& value, char type) {
  if (value.is_null()) return "NULL";
  switch (type) {
    case 'I':
      switch (value.kind()) {
        case Value::Kind::kInt:
          return std::to_string(value.as_int());
        case Value::Kind::kDouble:
          return std::to_string(TruncateToInt(value.as_double()));
        case Value::Kind::kBool:
          return value.as_bool() ? "1" : "0";
        default:
          return std::to_string(std::strtoll(value.as_string().c_str(), nullptr, 10));
      }
    case 'R':
      switch (value.kind()) {
        case Value::Kind::kInt:
          return FormatReal(static_cast<double>(value.as_int()));
        case Value::Kind::kDouble:
          return FormatReal(value.as_double());
        case Value::Kind::kBool:
          return value.as_bool() ? "1.000" : "0.000";
        default:
          return FormatReal(std::strtod(value.as_string().c_str(), nullptr));
      }
    default:
      switch (value.kind()) {
        case Value::Kind::kBool:
          return value.as_bool() ? "true" : "false";
        case Value::Kind::kText:
          return FormatText(value.as_string());
        default:
          return FormatText(value.ToText());
      }
  }
}

std::vector<std::string> FormatResult(const client::StatementResult& result,
                                      const std::string& types, SortMode sort) {
  std::vector<std::vector<std::string>> rows;
  rows.reserve(result.rows.size());
  for (const auto& row : result.rows) {
    std::vector<std::string> cells;
    cells.reserve(row.size());
    for (size_t c = 0; c < row.size(); ++c) {
      cells.push_back(FormatSltValue(row[c], c < types.size() ? types[c] : 'T'));
    }
    rows.push_back(std::move(cells));
  }
  if (sort == SortMode::kRowSort) std::sort(rows.begin(), rows.end());
  std::vector<std::string> values;
  for (auto& row : rows) {
    for (auto& v : row) values.push_back(std::move(v));
  }
  if (sort == SortMode::kValueSort) std::sort(values.begin(), values.end());
  return values;
}

std::string HashValues(const std::vector<std::string>& values) {
  Md5 md5;
  for (const auto& v : values) {
    md5.Update(v);
    md5.Update("\n");
  }
  return md5.HexDigest();
}

std::string HashLine(const std::vector<std::string>& values) {
  return std::to_string(values.size()) + " values hashing to " + HashValues(values);
}

bool IsHashLine(const std::string& line) {
  static const std::regex kPattern("^[0-9]+ values hashing to [0-9a-f]{32}$");
  return std::regex_match(line, kPattern);
}

}  // namespace meridian::slt
