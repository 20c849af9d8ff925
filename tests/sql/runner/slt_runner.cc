// sqllogictest record execution and result comparison (see slt_runner.h).
#include "runner/slt_runner.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "runner/slt_format.h"

namespace meridian::slt {

using client::ClientError;
using client::ClientResult;
using client::StatementResult;

namespace {

ClientError Unsupported(const std::string& what) {
  ClientError e;
  e.sqlstate = "0A000";
  e.message = what + " is not supported by this executor";
  return e;
}

ClientError RunnerError(const std::string& message) {
  ClientError e;
  e.sqlstate = "XX000";
  e.message = message;
  return e;
}

// The result of the last statement of sql that returns rows, else of its last statement.
ClientResult<StatementResult> LastResult(client::Connection& connection, const std::string& sql,
                                         std::chrono::milliseconds timeout) {
  client::ExecuteOptions options;
  options.timeout = timeout;
  auto results = connection.Execute(sql, options);
  if (!results.ok()) return results.error();
  if (results->empty()) return StatementResult();
  for (auto it = results->rbegin(); it != results->rend(); ++it) {
    if (it->returns_rows()) return std::move(*it);
  }
  return std::move(results->back());
}

}  // namespace

client::ClientStatus SltExecutor::UseSession(const std::string& name) {
  if (name == "default") return {};
  return Unsupported("connection");
}
ClientResult<bool> SltExecutor::StartBlocking(const std::string&) { return Unsupported("async"); }
bool SltExecutor::HasPending(const std::string&) const { return false; }
ClientResult<StatementResult> SltExecutor::Collect(const std::string&) {
  return Unsupported("wait");
}
void SltExecutor::CancelBackground() {}
client::ClientStatus SltExecutor::Restart(bool) { return Unsupported("restart"); }

// One named session: its connection and the background statement running on it, if any.
struct SessionExecutor::Session {
  std::unique_ptr<client::Connection> connection;
  std::thread worker;
  std::atomic<bool> done{false};  // the background statement returned
  std::optional<ClientResult<StatementResult>> result;
};

SessionExecutor::SessionExecutor(Connector connect, Restarter restart,
                                 std::chrono::milliseconds timeout)
    : connect_(std::move(connect)), restart_(std::move(restart)), timeout_(timeout) {}

SessionExecutor::~SessionExecutor() { CloseAll(); }

void SessionExecutor::CloseAll() {
  for (auto& [name, session] : sessions_) {
    if (session->worker.joinable()) {
      if (!session->done) session->connection->Cancel();
      session->worker.join();
    }
    session->connection->Close();
  }
  sessions_.clear();
  if (monitor_ != nullptr) monitor_->Close();
  monitor_.reset();
}

ClientResult<SessionExecutor::Session*> SessionExecutor::Open(const std::string& name) {
  auto it = sessions_.find(name);
  if (it != sessions_.end()) return it->second.get();
  auto conn = connect_();
  if (!conn.ok()) return conn.error();
  auto session = std::make_unique<Session>();
  session->connection = std::move(conn.value());
  Session* raw = session.get();
  sessions_.emplace(name, std::move(session));
  return raw;
}

ClientResult<client::Connection*> SessionExecutor::Current() {
  auto session = Open(current_);
  if (!session.ok()) return session.error();
  return session.value()->connection.get();
}

ClientResult<StatementResult> SessionExecutor::Execute(const std::string& sql) {
  auto session = Open(current_);
  if (!session.ok()) return session.error();
  if (session.value()->worker.joinable()) {
    return RunnerError("connection " + current_ +
                       " still runs an async statement (collect it with wait " + current_ + ")");
  }
  return LastResult(*session.value()->connection, sql, timeout_);
}

client::ClientStatus SessionExecutor::UseSession(const std::string& name) {
  current_ = name;
  auto session = Open(name);
  if (!session.ok()) return session.error();
  return {};
}

ClientResult<int64_t> SessionExecutor::CountLockWaits() {
  if (monitor_ == nullptr) {
    auto conn = connect_();
    if (!conn.ok()) return conn.error();
    monitor_ = std::move(conn.value());
  }
  auto r = LastResult(*monitor_, "SELECT count(*) FROM pg_locks WHERE NOT granted", timeout_);
  if (!r.ok()) return r.error();
  if (r->rows.size() != 1 || r->rows[0].size() != 1) {
    return RunnerError("pg_locks count: unexpected result");
  }
  return r->rows[0][0].as_int();
}

ClientResult<bool> SessionExecutor::StartBlocking(const std::string& sql) {
  auto opened = Open(current_);
  if (!opened.ok()) return opened.error();
  Session* session = opened.value();
  if (session->worker.joinable()) {
    return RunnerError("connection " + current_ + " already runs an async statement");
  }
  session->done = false;
  session->result.reset();
  session->worker = std::thread([this, session, sql] {
    session->result = LastResult(*session->connection, sql, timeout_);
    session->done = true;
  });
  // Blocked once the server lists as many lock waits as there are background statements
  // still running (this one included); polled, so a statement that finishes is noticed too.
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  while (std::chrono::steady_clock::now() < deadline) {
    if (session->done) return false;
    int64_t running = 0;
    for (const auto& [name, s] : sessions_) {
      if (s->worker.joinable() && !s->done) ++running;
    }
    auto waits = CountLockWaits();
    if (!waits.ok()) return waits.error();
    if (session->done) return false;
    if (waits.value() >= running) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return RunnerError("not seen blocked (nor finished) within the statement timeout");
}

bool SessionExecutor::HasPending(const std::string& name) const {
  auto it = sessions_.find(name);
  return it != sessions_.end() && it->second->worker.joinable();
}

ClientResult<StatementResult> SessionExecutor::Collect(const std::string& name) {
  auto it = sessions_.find(name);
  if (it == sessions_.end() || !it->second->worker.joinable()) {
    return RunnerError("connection " + name + " runs no async statement");
  }
  it->second->worker.join();  // bounded by the statement timeout (the call's deadline)
  ClientResult<StatementResult> result = std::move(*it->second->result);
  it->second->result.reset();
  return result;
}

void SessionExecutor::CancelBackground() {
  for (auto& [name, session] : sessions_) {
    if (session->worker.joinable() && !session->done) session->connection->Cancel();
  }
}

client::ClientStatus SessionExecutor::Restart(bool kill) {
  std::vector<std::string> names;
  for (const auto& [name, session] : sessions_) names.push_back(name);
  client::ClientStatus status;
  if (!kill || !restart_) CloseAll();  // a clean stop: sessions end first, as clients would
  if (restart_) status = restart_(kill);
  CloseAll();  // after a kill the connections are lost: drop them
  if (!status.ok()) return status;
  for (const auto& name : names) {
    auto session = Open(name);
    if (!session.ok()) return session.error();
  }
  if (!restart_) {
    return Unsupported("restart (it needs meridian-slt --daemon; the sessions were reconnected)");
  }
  return {};
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
          if (applies) {
            FailPending("still running at halt");
            return result_;
          }
          continue;
        case SltRecord::Kind::kUnknown:
          ++result_.skipped;
          if (options_.verbose) {
            log_ << file_name_ << ":" << r.line << ": skipping unknown record: " << r.command
                 << "\n";
          }
          continue;
        case SltRecord::Kind::kConnection:
          if (applies) UseSession(r);
          continue;
        case SltRecord::Kind::kStatement:
        case SltRecord::Kind::kQuery:
        case SltRecord::Kind::kWait:
        case SltRecord::Kind::kRestart:
          break;
      }
      if (!applies) {
        ++result_.skipped;
        continue;
      }
      switch (r.kind) {
        case SltRecord::Kind::kStatement:
        case SltRecord::Kind::kQuery:
          if (r.async) {
            StartAsync(r);
          } else {
            Check(r, executor_.Execute(SqlOf(r)));
          }
          break;
        case SltRecord::Kind::kWait:
          Wait(r);
          break;
        default:
          Restart(r);
          break;
      }
      if (result_.connection_lost) {
        // The session is gone: every remaining record that would run fails.
        for (size_t j = i + 1; j < records.size(); ++j) {
          const SltRecord& rest = records[j];
          if ((rest.kind == SltRecord::Kind::kStatement || rest.kind == SltRecord::Kind::kQuery ||
               rest.kind == SltRecord::Kind::kWait) &&
              ShouldRun(rest, options_.engine)) {
            ++result_.failed;
          }
        }
        return result_;
      }
    }
    FailPending("never collected (no wait record)");
    return result_;
  }

 private:
  static std::string SqlOf(const SltRecord& r) {
    return r.plan ? "EXPLAIN (COSTS OFF) " + r.sql : r.sql;
  }

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

  void Check(const SltRecord& r, const ClientResult<StatementResult>& result) {
    if (r.kind == SltRecord::Kind::kStatement) {
      CheckStatement(r, result);
    } else if (r.plan) {
      CheckPlan(r, result);
    } else {
      CheckQuery(r, result);
    }
  }

  // A `connection` record: a session that cannot be opened fails the record.
  void UseSession(const SltRecord& r) {
    current_ = r.connection;
    auto status = executor_.UseSession(r.connection);
    if (!status.ok()) {
      Fail(r, "connection " + r.connection + ": " + status.error().ToString(), "");
      if (status.error().connection_lost) result_.connection_lost = true;
    }
  }

  // An `async` record: started; it must block (checked later by `wait`) or it fails now.
  void StartAsync(const SltRecord& r) {
    if (pending_.count(current_) > 0) {
      Fail(r, "connection " + current_ + " still runs an async statement (wait " + current_ + ")",
           "");
      return;
    }
    auto blocked = executor_.StartBlocking(SqlOf(r));
    if (!blocked.ok()) {
      Fail(r, "async: " + blocked.error().ToString(), "");
      if (executor_.HasPending(current_)) {
        executor_.CancelBackground();  // an error path: the other waiters fail too (57014)
        (void)executor_.Collect(current_);
      }
      return;
    }
    if (!blocked.value()) {
      auto result = executor_.Collect(current_);
      Fail(r,
           "async statement did not block: it finished with " +
               (result.ok() ? std::string("success") : result.error().ToString()),
           "");
      return;
    }
    pending_[current_] = &r;
  }

  void Wait(const SltRecord& r) {
    auto it = pending_.find(r.connection);
    if (it == pending_.end()) {
      Fail(r, "wait " + r.connection + ": no async record runs on that connection", "");
      return;
    }
    const SltRecord& started = *it->second;
    pending_.erase(it);
    Check(started, executor_.Collect(r.connection));
  }

  void Restart(const SltRecord& r) {
    FailPending("still running at restart");
    auto status = executor_.Restart(r.kill);
    if (status.ok()) {
      ++result_.passed;
      return;
    }
    if (status.error().sqlstate == "0A000") {  // no runner-owned daemon: reconnected, skipped
      ++result_.skipped;
      if (options_.verbose) {
        log_ << file_name_ << ":" << r.line << ": skipping restart: " << status.error().message
             << "\n";
      }
      return;
    }
    Fail(r, "restart failed: " + status.error().ToString(), "");
    result_.connection_lost = true;
  }

  // Fails (and collects) the async records no `wait` collected.
  void FailPending(const std::string& why) {
    if (!pending_.empty()) executor_.CancelBackground();
    for (const auto& [name, record] : pending_) {
      (void)executor_.Collect(name);
      Fail(*record, "async statement on connection " + name + " " + why, "");
    }
    pending_.clear();
  }

  void CheckStatement(const SltRecord& r, const ClientResult<StatementResult>& result) {
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

  // `query plan`: EXPLAIN (COSTS OFF)'s lines, trailing blanks cut, equal to the expected ones.
  void CheckPlan(const SltRecord& r, const ClientResult<StatementResult>& result) {
    if (!result.ok()) {
      if (result.error().connection_lost) result_.connection_lost = true;
      Fail(r, "EXPLAIN failed: " + result.error().ToString(), "");
      return;
    }
    auto trimmed = [](std::string line) {
      while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
      return line;
    };
    std::vector<std::string> got;
    for (const auto& row : result.value().rows) {
      got.push_back(trimmed(row.empty() || row[0].is_null() ? "" : row[0].ToText()));
    }
    std::vector<std::string> want;
    for (const auto& line : r.expected) want.push_back(trimmed(line));
    if (got != want) {
      Fail(r, "plan mismatch", "  expected:\n" + JoinLines(want) + "  got:\n" + JoinLines(got));
      return;
    }
    ++result_.passed;
  }

  void CheckQuery(const SltRecord& r, const ClientResult<StatementResult>& result) {
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
  std::map<std::string, std::string> labels_;        // label -> hash line of its first result
  std::string current_ = "default";                  // the session records run on
  std::map<std::string, const SltRecord*> pending_;  // connection -> its async record
};

}  // namespace

SltFileResult RunSltRecords(const std::vector<SltRecord>& records, SltExecutor& executor,
                            const SltRunOptions& options, const std::string& file_name,
                            std::ostream& log) {
  FileRun run(executor, options, file_name, log);
  return run.Run(records);
}

}  // namespace meridian::slt
