// The shell's main loop, statement execution and backslash commands (see shell.h).
#include "shell/shell.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "shell/catalog_format.h"
#include "shell/error_format.h"
#include "shell/result_printer.h"
#include "shell/statement_splitter.h"

namespace meridian::shell {

namespace {

constexpr const char* kPrompt = "meridian=> ";
constexpr const char* kContinuationPrompt = "meridian-> ";

std::vector<std::string> SplitWords(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

// psql folds an unquoted name to lower case and strips the quotes of a quoted one.
std::string NormalizeName(const std::string& name) {
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
    std::string out;
    for (size_t i = 1; i + 1 < name.size(); ++i) {
      out += name[i];
      if (name[i] == '"' && i + 2 < name.size() && name[i + 1] == '"') ++i;
    }
    return out;
  }
  std::string out = name;
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string HelpText(bool timing) {
  return std::string(
             "General\n"
             "  \\q                     quit meridian\n"
             "  \\timing [on|off]       toggle timing of commands (currently ") +
         (timing ? "on" : "off") +
         ")\n"
         "  \\?                     show this help\n"
         "\n"
         "Informational\n"
         "  \\d [NAME]              describe table NAME, or list tables\n"
         "  \\dt                    list tables\n"
         "  \\di                    list indexes\n"
         "\n"
         "Statements end with ';' and may span lines; Ctrl-C cancels a running statement.\n";
}

}  // namespace

Shell::Shell(ShellOptions options, std::istream& in, std::ostream& out, std::ostream& err)
    : options_(std::move(options)), in_(in), out_(out), err_(err) {}

Shell::~Shell() {
  live_connection_.store(nullptr);
  if (connection_) connection_->Close();
}

int Shell::ExitCode(Outcome outcome) {
  switch (outcome) {
    case Outcome::kOk:
    case Outcome::kQuit:
      return kExitOk;
    case Outcome::kError:
      return kExitStatementFailed;
    case Outcome::kLost:
      return kExitConnectionFailed;
  }
  return kExitOk;
}

bool Shell::Interrupt() {
  client::Connection* conn = live_connection_.load();
  if (running_.load() && conn != nullptr) {
    if (conn->Cancel()) {
      err_ << "Cancel request sent\n";
      err_.flush();
    }
    return true;
  }
  // At the interactive prompt the main loop sees the interrupted read itself.
  return interactive_.load();
}

int Shell::Run(bool interactive) {
  if (options_.help) {
    out_ << ShellUsage();
    return kExitOk;
  }
  if (options_.version) {
    out_ << "meridian (Meridian) 0.1.0\n";
    return kExitOk;
  }
  client::ConnectOptions connect_options;
  connect_options.user = options_.user;
  connect_options.password = options_.password;
  connect_options.tls = options_.tls;
  connect_options.database = options_.dbname;
  connect_options.application_name = "meridian";
  auto conn = client::Connection::Connect(options_.host, options_.port, connect_options);
  if (!conn.ok()) {
    err_ << "meridian: error: " << conn.error().message << "\n";
    return kExitConnectionFailed;
  }
  connection_ = std::move(conn.value());
  live_connection_.store(connection_.get());

  Outcome outcome = Outcome::kOk;
  if (!options_.actions.empty()) {
    for (const auto& action : options_.actions) {
      if (action.kind == ShellAction::Kind::kCommand) {
        std::string_view text = action.text;
        size_t first = text.find_first_not_of(" \t\r\n");
        if (first != std::string_view::npos && text[first] == '\\') {
          outcome = RunMeta(std::string(text.substr(first)));
        } else {
          outcome = RunSql(action.text);
        }
      } else if (action.text == "-") {
        auto editor = LineEditor::CreatePlain(in_);
        outcome = RunInput(*editor, false);
      } else {
        std::ifstream file(action.text);
        if (!file) {
          err_ << "meridian: error: " << action.text << ": could not open file\n";
          outcome = Outcome::kError;
        } else {
          auto editor = LineEditor::CreatePlain(file);
          outcome = RunInput(*editor, false);
        }
      }
      if (outcome != Outcome::kOk) break;
    }
  } else if (interactive) {
    interactive_.store(true);
    out_ << "meridian (server " << connection_->server_version() << ")\n"
         << "Type \"\\?\" for help.\n\n";
    out_.flush();
    auto editor = LineEditor::CreateLibedit(DefaultHistoryPath());
    outcome = RunInput(*editor, true);
    interactive_.store(false);
  } else {
    auto editor = LineEditor::CreatePlain(in_);
    outcome = RunInput(*editor, false);
  }
  out_.flush();
  if (outcome == Outcome::kLost) {
    err_ << "meridian: error: connection to server at " << connection_->target() << " was lost\n";
  }
  return ExitCode(outcome);
}

Shell::Outcome Shell::RunInput(LineEditor& editor, bool interactive) {
  StatementSplitter splitter;
  while (true) {
    uint64_t interrupts = interrupt_counter_();
    std::optional<std::string> line =
        editor.ReadLine(splitter.HasPending() ? kContinuationPrompt : kPrompt);
    if (interactive && interrupt_counter_() != interrupts) {
      // Ctrl-C at the prompt: drop what was typed so far.
      splitter.Reset();
      out_ << '\n';
      out_.flush();
      continue;
    }
    if (!line) break;
    for (auto& item : splitter.FeedLine(*line)) {
      Outcome outcome;
      if (item.kind == InputItem::Kind::kSql) {
        if (interactive) editor.AddHistory(item.text);
        outcome = RunSql(item.text);
      } else {
        if (interactive) editor.AddHistory(item.text);
        outcome = RunMeta(item.text);
      }
      if (outcome == Outcome::kQuit || outcome == Outcome::kLost) return outcome;
      if (outcome == Outcome::kError && !interactive) return outcome;
    }
  }
  if (interactive) {
    out_ << '\n';  // end the prompt line after Ctrl-D
    return Outcome::kOk;
  }
  if (auto last = splitter.Finish()) return RunSql(last->text);
  return Outcome::kOk;
}

Shell::Outcome Shell::RunSql(const std::string& sql) {
  auto printer = ResultPrinter::Create(options_.format, out_, err_);
  auto start = std::chrono::steady_clock::now();
  running_.store(true);
  client::ClientStatus status = connection_->Execute(sql, *printer);
  running_.store(false);
  auto elapsed = std::chrono::steady_clock::now() - start;
  out_.flush();
  Outcome outcome = Outcome::kOk;
  if (!status.ok()) {
    err_ << FormatError(status.error(), sql);
    err_.flush();
    outcome = status.error().connection_lost ? Outcome::kLost : Outcome::kError;
  }
  if (timing_) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "Time: %.3f ms\n",
                  std::chrono::duration<double, std::milli>(elapsed).count());
    out_ << buf;
    out_.flush();
  }
  return outcome;
}

Shell::Outcome Shell::CatalogError(const client::ClientError& error) {
  err_ << FormatError(error, "");
  return error.connection_lost ? Outcome::kLost : Outcome::kError;
}

Shell::Outcome Shell::DescribeTables() {
  auto tables = connection_->DescribeCatalog("");
  if (!tables.ok()) return CatalogError(tables.error());
  if (tables->empty()) {
    err_ << "Did not find any relations.\n";
    return Outcome::kOk;
  }
  PrintAlignedTable(TableListTable(std::move(tables.value())), out_);
  return Outcome::kOk;
}

Shell::Outcome Shell::DescribeIndexes() {
  auto tables = connection_->DescribeCatalog("");
  if (!tables.ok()) return CatalogError(tables.error());
  TextTable list = IndexListTable(tables.value());
  if (list.rows.empty()) {
    err_ << "Did not find any relations.\n";
    return Outcome::kOk;
  }
  PrintAlignedTable(list, out_);
  return Outcome::kOk;
}

Shell::Outcome Shell::DescribeTable(const std::string& name) {
  std::string wanted = NormalizeName(name);
  auto tables = connection_->DescribeCatalog(wanted);
  if (!tables.ok()) {
    if (tables.error().sqlstate == "42P01") {
      err_ << "Did not find any relation named \"" << name << "\".\n";
      return Outcome::kError;
    }
    return CatalogError(tables.error());
  }
  for (const auto& table : tables.value()) {
    if (table.name == wanted) {
      PrintAlignedTable(TableDetailTable(table), out_);
      return Outcome::kOk;
    }
  }
  err_ << "Did not find any relation named \"" << name << "\".\n";
  return Outcome::kError;
}

Shell::Outcome Shell::RunMeta(const std::string& command) {
  std::vector<std::string> words = SplitWords(command);
  if (words.empty()) return Outcome::kOk;
  const std::string& name = words[0];
  Outcome outcome = Outcome::kOk;
  if (name == "\\q" || name == "\\quit") {
    return Outcome::kQuit;
  } else if (name == "\\timing") {
    if (words.size() > 1) {
      if (words[1] == "on") {
        timing_ = true;
      } else if (words[1] == "off") {
        timing_ = false;
      } else {
        err_ << "\\timing: unrecognized value \"" << words[1] << "\": Boolean expected\n";
        return Outcome::kError;
      }
    } else {
      timing_ = !timing_;
    }
    out_ << (timing_ ? "Timing is on.\n" : "Timing is off.\n");
  } else if (name == "\\dt" || (name == "\\d" && words.size() == 1)) {
    outcome = DescribeTables();
  } else if (name == "\\di") {
    outcome = DescribeIndexes();
  } else if (name == "\\d") {
    for (size_t i = 1; i < words.size() && outcome == Outcome::kOk; ++i) {
      outcome = DescribeTable(words[i]);
    }
  } else if (name == "\\?" || name == "\\help" || name == "\\h") {
    out_ << HelpText(timing_);
  } else {
    err_ << "invalid command " << name << "\nTry \\? for help.\n";
    outcome = Outcome::kError;
  }
  out_.flush();
  err_.flush();
  return outcome;
}

}  // namespace meridian::shell
