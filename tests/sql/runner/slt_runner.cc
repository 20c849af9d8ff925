// sqllogictest record execution and result comparison (see slt_runner.h).
#include "runner/slt_runner.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "runner/slt_format.h"

namespace meridian::slt {

using client::ClientResult;
using client::StatementResult;

ClientResult<StatementResult> ConnectionExecutor::Execute(const std::string& sql) {
  client::ExecuteOptions options;
  options.timeout = timeout_;
  auto results = connection_.Execute(sql, options);
  if (!results.ok()) return results.error();
  if (results->empty()) return StatementResult();
  for (auto it = results->rbegin(); it != results->rend(); ++it) {
    if (it->returns_rows()) return std::move(*it);
  }
  return std::move(results->back());
}

namespace {

std::string Indent(const std::string& text) {
  std::string out = "    ";
  for (char c : text) {
    out += c;
    if (c == '\n') out += "    ";
  }
  return out;
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += "    " + l + "\n";
  return out;
}

// Expected lines are one value per line (SQLite) or, leniently, one row per line with values
// separated by blanks (the form other runners print).
bool ValuesMatch(const std::vector<std::string>& expected, const std::vector<std::string>& values,
                 size_t columns) {
  if (expected == values) return true;
  if (columns <= 1 || values.size() != expected.size() * columns) return false;
  for (size_t r = 0; r < expected.size(); ++r) {
    std::string row;
    for (size_t c = 0; c < columns; ++c) {
      if (c > 0) row += ' ';
      row += values[r * columns + c];
    }
    std::string want = expected[r];
    for (char& ch : want) {
      if (ch == '\t') ch = ' ';
    }
    if (row != want) return false;
  }
  return true;
}

// The actual values as the expected section writes them: one row per line when the expected
// lines are rows (hold blanks), else one value per line.
std::vector<std::string> DisplayRows(const std::vector<std::string>& expected,
                                     const std::vector<std::string>& values, size_t columns) {
  bool row_form = columns > 1 && std::any_of(expected.begin(), expected.end(), [](const auto& l) {
                    return l.find_first_of(" \t") != std::string::npos;
                  });
  if (!row_form) return values;
  std::vector<std::string> rows;
  for (size_t i = 0; i < values.size(); i += columns) {
    std::string row;
    for (size_t c = i; c < i + columns && c < values.size(); ++c) {
      if (c > i) row += ' ';
      row += values[c];
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

class FileRun {
 public:
  FileRun(SltExecutor& executor, const SltRunOptions& options, const std::string& file_name,
          std::ostream& log)
      : executor_(executor), options_(options), file_name_(file_name), log_(log) {}

  SltFileResult Run(const std::vector<SltRecord>& records) {
    for (size_t i = 0; i < records.size(); ++i) {
      const SltRecord& r = records[i];
      bool applies = ShouldRun(r, options_.engine);
      switch (r.kind) {
        case SltRecord::Kind::kHashThreshold:
          if (applies) hash_threshold_ = r.hash_threshold;
          continue;
        case SltRecord::Kind::kHalt:
          if (applies) return result_;
          continue;
        case SltRecord::Kind::kUnknown:
          ++result_.skipped;
          if (options_.verbose) {
            log_ << file_name_ << ":" << r.line << ": skipping unknown record: " << r.command
                 << "\n";
          }
          continue;
        case SltRecord::Kind::kStatement:
        case SltRecord::Kind::kQuery:
          break;
      }
      if (!applies) {
        ++result_.skipped;
        continue;
      }
      if (r.kind == SltRecord::Kind::kStatement) {
        RunStatement(r);
      } else {
        RunQuery(r);
      }
      if (result_.connection_lost) {
        // The session is gone: every remaining record that would run fails.
        for (size_t j = i + 1; j < records.size(); ++j) {
          const SltRecord& rest = records[j];
          if ((rest.kind == SltRecord::Kind::kStatement || rest.kind == SltRecord::Kind::kQuery) &&
              ShouldRun(rest, options_.engine)) {
            ++result_.failed;
          }
        }
        return result_;
      }
    }
    return result_;
  }

 private:
  void Fail(const SltRecord& r, const std::string& reason, const std::string& details) {
    ++result_.failed;
    if (options_.verbose) {
      log_ << "FAIL " << file_name_ << ":" << r.line << ": " << reason << "\n"
           << "  sql:\n"
           << Indent(r.sql) << "\n"
           << details;
    } else if (result_.failed <= options_.max_brief_failures) {
      log_ << "FAIL " << file_name_ << ":" << r.line << ": " << reason << "\n";
    } else if (result_.failed == options_.max_brief_failures + 1) {
      log_ << file_name_ << ": more failures not shown (use --verbose)\n";
    }
  }

  void RunStatement(const SltRecord& r) {
    auto result = executor_.Execute(r.sql);
    if (!result.ok() && result.error().connection_lost) result_.connection_lost = true;
    if (r.expect_error) {
      if (result.ok()) {
        Fail(
            r, "statement succeeded, error expected",
            r.expected_sqlstate.empty() ? "" : "  expected SQLSTATE " + r.expected_sqlstate + "\n");
        return;
      }
      if (result_.connection_lost) {
        Fail(r, "connection lost: " + result.error().ToString(), "");
        return;
      }
      if (!r.expected_sqlstate.empty() && result.error().sqlstate != r.expected_sqlstate) {
        Fail(r, "expected SQLSTATE " + r.expected_sqlstate + ", got " + result.error().ToString(),
             "");
        return;
      }
      ++result_.passed;
      return;
    }
    if (!result.ok()) {
      Fail(r, "statement failed: " + result.error().ToString(), "");
      return;
    }
    ++result_.passed;
  }

  void RunQuery(const SltRecord& r) {
    auto result = executor_.Execute(r.sql);
    if (!result.ok()) {
      if (result.error().connection_lost) result_.connection_lost = true;
      Fail(r, "query failed: " + result.error().ToString(), "");
      return;
    }
    const StatementResult& sr = result.value();
    if (!r.types.empty() && sr.columns.size() != r.types.size()) {
      Fail(r,
           "expected " + std::to_string(r.types.size()) + " columns, got " +
               std::to_string(sr.columns.size()),
           "");
      return;
    }
    std::vector<std::string> values = FormatResult(sr, r.types, r.sort);
    std::string hash_line = HashLine(values);
    bool hashed = hash_threshold_ > 0 && values.size() > static_cast<size_t>(hash_threshold_);
    if (!r.label.empty()) {
      auto [it, inserted] = labels_.emplace(r.label, hash_line);
      if (!inserted && it->second != hash_line) {
        Fail(r, "result differs from earlier query labeled " + r.label,
             "  expected:\n    " + it->second + "\n  got:\n    " + hash_line + "\n");
        return;
      }
    }
    if (r.has_expected) {
      bool ok;
      std::vector<std::string> got;
      if (r.expected.size() == 1 && IsHashLine(r.expected[0])) {
        ok = hash_line == r.expected[0];
        got = {hash_line};
      } else {
        ok = ValuesMatch(r.expected, values, sr.columns.size());
        got = hashed && values.size() > 200 ? std::vector<std::string>{hash_line}
                                            : DisplayRows(r.expected, values, sr.columns.size());
      }
      if (!ok) {
        Fail(r, "result mismatch",
             "  expected:\n" + JoinLines(r.expected) + "  got:\n" + JoinLines(got));
        return;
      }
    }
    ++result_.passed;
  }

  SltExecutor& executor_;
  const SltRunOptions& options_;
  const std::string& file_name_;
  std::ostream& log_;
  SltFileResult result_;
  int hash_threshold_ = 0;
  std::map<std::string, std::string> labels_;  // label -> hash line of its first result
};

}  // namespace

SltFileResult RunSltRecords(const std::vector<SltRecord>& records, SltExecutor& executor,
                            const SltRunOptions& options, const std::string& file_name,
                            std::ostream& log) {
  FileRun run(executor, options, file_name, log);
  return run.Run(records);
}

}  // namespace meridian::slt
