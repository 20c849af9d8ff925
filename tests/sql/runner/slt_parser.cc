// sqllogictest script parser (see slt_parser.h).
#include "runner/slt_parser.h"

#include <cctype>
#include <charconv>
#include <sstream>

namespace meridian::slt {

namespace {

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

bool IsBlankLine(std::string_view line) {
  for (char c : line) {
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::vector<std::string> Tokens(std::string_view line) {
  std::vector<std::string> out;
  std::istringstream in{std::string(line)};
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

bool IsSqlState(const std::string& s) {
  if (s.size() != 5) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c)) &&
        !std::isupper(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  return true;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<SltRecord> ParseSlt(std::string_view text) {
  std::vector<std::string_view> lines = SplitLines(text);
  std::vector<SltRecord> records;
  size_t i = 0;
  std::vector<SltCondition> conditions;
  while (i < lines.size()) {
    std::string_view line = lines[i];
    if (IsBlankLine(line)) {
      conditions.clear();  // conditions belong to the record they directly precede
      ++i;
      continue;
    }
    if (line[0] == '#') {
      ++i;
      continue;
    }
    std::vector<std::string> tokens = Tokens(line);
    int line_number = static_cast<int>(i) + 1;
    ++i;
    if (tokens[0] == "skipif" || tokens[0] == "onlyif") {
      conditions.push_back({tokens[0] == "onlyif", tokens.size() > 1 ? tokens[1] : ""});
      continue;
    }
    SltRecord record;
    record.line = line_number;
    record.conditions = std::move(conditions);
    conditions.clear();
    // Reads SQL lines up to a blank line (or "----" for queries).
    auto read_sql = [&](bool stop_at_dashes) {
      std::string sql;
      while (i < lines.size() && !IsBlankLine(lines[i])) {
        if (stop_at_dashes && lines[i].substr(0, 4) == "----") break;
        if (!sql.empty()) sql += '\n';
        sql += lines[i];
        ++i;
      }
      return sql;
    };
    // The lines after "----" of a query, up to a blank line.
    auto read_expected = [&] {
      if (i >= lines.size() || lines[i].substr(0, 4) != "----") return;
      record.has_expected = true;
      ++i;
      while (i < lines.size() && !IsBlankLine(lines[i])) {
        record.expected.emplace_back(lines[i]);
        ++i;
      }
    };
    // Meridian's `async` suffix of statement and query records.
    if ((tokens[0] == "statement" || tokens[0] == "query") && tokens.size() > 1 &&
        tokens.back() == "async") {
      record.async = true;
      tokens.pop_back();
    }
    if (tokens[0] == "connection" && tokens.size() == 2) {
      record.kind = SltRecord::Kind::kConnection;
      record.connection = tokens[1];
    } else if (tokens[0] == "wait" && tokens.size() == 2) {
      record.kind = SltRecord::Kind::kWait;
      record.connection = tokens[1];
    } else if (tokens[0] == "restart" &&
               (tokens.size() == 1 || (tokens.size() == 2 && tokens[1] == "kill"))) {
      record.kind = SltRecord::Kind::kRestart;
      record.kill = tokens.size() == 2;
    } else if (tokens[0] == "statement") {
      record.kind = SltRecord::Kind::kStatement;
      record.expect_error = tokens.size() > 1 && tokens[1] == "error";
      if (record.expect_error && tokens.size() > 2 && IsSqlState(tokens[2])) {
        record.expected_sqlstate = tokens[2];
      }
      if (tokens.size() < 2 || (tokens[1] != "ok" && tokens[1] != "error")) {
        record.kind = SltRecord::Kind::kUnknown;
        record.command = std::string(line);
      }
      record.sql = read_sql(true);
      // DuckDB-style expected error text after "----": skip it.
      if (i < lines.size() && lines[i].substr(0, 4) == "----") {
        while (i < lines.size() && !IsBlankLine(lines[i])) ++i;
      }
    } else if (tokens[0] == "query") {
      record.kind = SltRecord::Kind::kQuery;
      record.plan = tokens.size() == 2 && tokens[1] == "plan";
      record.types = tokens.size() > 1 && !record.plan ? tokens[1] : "";
      if (tokens.size() > 2) {
        if (tokens[2] == "rowsort") {
          record.sort = SortMode::kRowSort;
        } else if (tokens[2] == "valuesort") {
          record.sort = SortMode::kValueSort;
        }
      }
      if (tokens.size() > 3) record.label = tokens[3];
      record.sql = read_sql(true);
      read_expected();
    } else if (tokens[0] == "hash-threshold") {
      record.kind = SltRecord::Kind::kHashThreshold;
      if (tokens.size() > 1) {
        std::from_chars(tokens[1].data(), tokens[1].data() + tokens[1].size(),
                        record.hash_threshold);
      }
    } else if (tokens[0] == "halt") {
      record.kind = SltRecord::Kind::kHalt;
    } else {
      record.kind = SltRecord::Kind::kUnknown;
      record.command = std::string(line);
      while (i < lines.size() && !IsBlankLine(lines[i])) ++i;
    }
    records.push_back(std::move(record));
  }
  return records;
}

bool ShouldRun(const SltRecord& record, std::string_view engine) {
  for (const auto& c : record.conditions) {
    bool match = EqualsIgnoreCase(c.engine, engine);
    if (c.only_if && !match) return false;
    if (!c.only_if && match) return false;
  }
  return true;
}

}  // namespace meridian::slt
