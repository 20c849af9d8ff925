// Aligned / CSV / JSON result printers of the shell.
#include "shell/result_printer.h"

#include <algorithm>
#include <cstdio>

namespace meridian::shell {

using client::ColumnInfo;
using client::Row;
using client::StatementResult;
using client::Value;

bool ParseOutputFormat(std::string_view text, OutputFormat* format) {
  if (text == "aligned") {
    *format = OutputFormat::kAligned;
  } else if (text == "csv") {
    *format = OutputFormat::kCsv;
  } else if (text == "json") {
    *format = OutputFormat::kJson;
  } else {
    return false;
  }
  return true;
}

size_t DisplayWidth(std::string_view text) {
  size_t width = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80) ++width;
  }
  return width;
}

namespace {

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (true) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

void Pad(std::ostream& out, size_t n) {
  for (size_t i = 0; i < n; ++i) out.put(' ');
}

bool IsRightAligned(const ColumnInfo& c) {
  if (client::IsNumericOid(c.pg_oid)) return true;
  if (c.pg_oid != 0) return false;
  static const char* kNumericNames[] = {"smallint", "integer",          "bigint",
                                        "real",     "double precision", "numeric"};
  return std::find(std::begin(kNumericNames), std::end(kNumericNames), c.type_name) !=
         std::end(kNumericNames);
}

}  // namespace

void PrintAlignedTable(const TextTable& table, std::ostream& out) {
  const size_t ncols = table.headers.size();
  std::vector<size_t> widths(ncols, 0);
  for (size_t c = 0; c < ncols; ++c) {
    for (auto line : SplitLines(table.headers[c]))
      widths[c] = std::max(widths[c], DisplayWidth(line));
  }
  for (const auto& row : table.rows) {
    for (size_t c = 0; c < ncols && c < row.size(); ++c) {
      for (auto line : SplitLines(row[c])) widths[c] = std::max(widths[c], DisplayWidth(line));
    }
  }
  size_t total = 0;
  for (size_t c = 0; c < ncols; ++c) total += widths[c] + (c == 0 ? 2 : 3);
  if (!table.title.empty()) {
    size_t tw = DisplayWidth(table.title);
    if (tw < total) Pad(out, (total - tw) / 2);
    out << table.title << '\n';
  }
  // Header: centered cells, every cell padded, trailing space after the last.
  out << ' ';
  for (size_t c = 0; c < ncols; ++c) {
    size_t w = DisplayWidth(table.headers[c]);
    size_t before = (widths[c] - std::min(w, widths[c])) / 2;
    Pad(out, before);
    out << table.headers[c];
    Pad(out, widths[c] - std::min(w, widths[c]) - before);
    out << (c + 1 < ncols ? " | " : " ");
  }
  out << '\n';
  for (size_t c = 0; c < ncols; ++c) {
    if (c > 0) out << '+';
    out << std::string(widths[c] + 2, '-');
  }
  out << '\n';
  static const std::string kEmpty;
  for (const auto& row : table.rows) {
    std::vector<std::vector<std::string_view>> cells(ncols);
    size_t height = 1;
    for (size_t c = 0; c < ncols; ++c) {
      cells[c] = SplitLines(c < row.size() ? row[c] : kEmpty);
      height = std::max(height, cells[c].size());
    }
    for (size_t h = 0; h < height; ++h) {
      out << ' ';
      for (size_t c = 0; c < ncols; ++c) {
        std::string_view text = h < cells[c].size() ? cells[c][h] : std::string_view();
        bool more = h + 1 < cells[c].size();
        bool last = c + 1 == ncols;
        size_t pad = widths[c] - std::min(DisplayWidth(text), widths[c]);
        bool right = c < table.right_align.size() && table.right_align[c];
        if (right) Pad(out, pad);
        out << text;
        if (!right && (!last || more)) Pad(out, pad);
        if (last) {
          if (more) out << '+';
        } else {
          out << (more ? "+| " : " | ");
        }
      }
      out << '\n';
    }
  }
  for (const auto& line : table.footer_lines) out << line << '\n';
  if (table.footer) {
    out << '(' << table.rows.size() << (table.rows.size() == 1 ? " row)" : " rows)") << '\n';
  }
  out << '\n';
}

std::string CsvField(std::string_view value) {
  bool quote = value.empty() || value.find_first_of(",\"\r\n") != std::string_view::npos;
  if (!quote) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string JsonString(std::string_view value) {
  std::string out = "\"";
  for (unsigned char c : value) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

namespace {

bool LooksLikeJsonNumber(std::string_view s) {
  // -?digits[.digits][e[+-]digits]
  size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  size_t digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (digits == 0) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t frac = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++frac;
    if (frac == 0) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp;
    if (exp == 0) return false;
  }
  return i == s.size();
}

}  // namespace

std::string JsonValue(const Value& value, const ColumnInfo& column) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return "null";
    case Value::Kind::kBool:
      return value.as_bool() ? "true" : "false";
    case Value::Kind::kInt:
      return value.ToText();
    case Value::Kind::kDouble: {
      std::string text = value.ToText();
      return LooksLikeJsonNumber(text) ? text : JsonString(text);  // NaN, Infinity
    }
    case Value::Kind::kText:
      if (IsRightAligned(column) && LooksLikeJsonNumber(value.as_string())) {
        return value.as_string();
      }
      return JsonString(value.as_string());
    case Value::Kind::kBytes:
      return JsonString(value.ToText());
  }
  return "null";
}

void ResultPrinter::OnNotice(const std::string& notice) {
  out_.flush();
  err_ << "NOTICE:  " << notice << '\n';
  err_.flush();
}

namespace {

class AlignedPrinter : public ResultPrinter {
 public:
  AlignedPrinter(std::ostream& out, std::ostream& err) : ResultPrinter(out, err) {}

  void OnStatementStart(uint32_t, const std::vector<ColumnInfo>& columns) override {
    table_ = TextTable();
    for (const auto& c : columns) {
      table_.headers.push_back(c.name);
      table_.right_align.push_back(IsRightAligned(c));
    }
  }
  void OnRow(uint32_t, const Row& row) override {
    std::vector<std::string> cells;
    cells.reserve(row.size());
    for (const auto& v : row) cells.push_back(v.ToText());
    table_.rows.push_back(std::move(cells));
  }
  void OnStatementEnd(uint32_t, const StatementResult& summary) override {
    if (summary.returns_rows()) {
      rows_printed_ += table_.rows.size();
      PrintAlignedTable(table_, out_);
    } else if (!summary.command_tag.empty()) {
      out_ << summary.command_tag << '\n';
    }
    table_ = TextTable();
    out_.flush();
  }

 private:
  TextTable table_;
};

class CsvPrinter : public ResultPrinter {
 public:
  CsvPrinter(std::ostream& out, std::ostream& err) : ResultPrinter(out, err) {}

  void OnStatementStart(uint32_t, const std::vector<ColumnInfo>& columns) override {
    if (columns.empty()) return;
    for (size_t i = 0; i < columns.size(); ++i) {
      if (i > 0) out_ << ',';
      out_ << CsvField(columns[i].name);
    }
    out_ << '\n';
  }
  void OnRow(uint32_t, const Row& row) override {
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0) out_ << ',';
      if (!row[i].is_null()) out_ << CsvField(row[i].ToText());
    }
    out_ << '\n';
    ++rows_printed_;
  }
  void OnStatementEnd(uint32_t, const StatementResult& summary) override {
    if (!summary.returns_rows() && !summary.command_tag.empty()) {
      out_ << summary.command_tag << '\n';
    }
    out_.flush();
  }
};

class JsonPrinter : public ResultPrinter {
 public:
  JsonPrinter(std::ostream& out, std::ostream& err) : ResultPrinter(out, err) {}

  void OnStatementStart(uint32_t, const std::vector<ColumnInfo>& columns) override {
    columns_ = columns;
    names_.clear();
    for (const auto& c : columns) names_.push_back(JsonString(c.name));
    if (!columns.empty()) out_ << '[';
    first_row_ = true;
  }
  void OnRow(uint32_t, const Row& row) override {
    if (!first_row_) out_ << ",\n";
    first_row_ = false;
    out_ << '{';
    for (size_t i = 0; i < row.size() && i < columns_.size(); ++i) {
      if (i > 0) out_ << ',';
      out_ << names_[i] << ':' << JsonValue(row[i], columns_[i]);
    }
    out_ << '}';
    ++rows_printed_;
  }
  void OnStatementEnd(uint32_t, const StatementResult& summary) override {
    if (summary.returns_rows()) {
      out_ << "]\n";
    } else if (!summary.command_tag.empty()) {
      out_ << summary.command_tag << '\n';
    }
    out_.flush();
  }

 private:
  std::vector<ColumnInfo> columns_;
  std::vector<std::string> names_;
  bool first_row_ = true;
};

}  // namespace

std::unique_ptr<ResultPrinter> ResultPrinter::Create(OutputFormat format, std::ostream& out,
                                                     std::ostream& err) {
  switch (format) {
    case OutputFormat::kCsv:
      return std::unique_ptr<ResultPrinter>(new CsvPrinter(out, err));
    case OutputFormat::kJson:
      return std::unique_ptr<ResultPrinter>(new JsonPrinter(out, err));
    case OutputFormat::kAligned:
      break;
  }
  return std::unique_ptr<ResultPrinter>(new AlignedPrinter(out, err));
}

}  // namespace meridian::shell
