// Run-time parameters: the table of known parameters (PostgreSQL's names, defaults, flags and
// value rules), value checking and normalisation to SHOW's format, and the ParameterStatus
// bookkeeping. See session_settings.h.
#include "main/session_settings.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <limits>
#include <optional>

#include "catalog/namespace.h"
#include "catalog/system_tables.h"
#include "function/sequence.h"
#include "main/prepared.h"
#include "main/transaction_block.h"
#include "meridian/database.h"

namespace meridian::exec {

namespace {

enum class Kind {
  kString,
  kBool,
  kInt,
  kMilliseconds,
  kKilobytes,  // memory: a number of kB, or with a unit B, kB, MB, GB, TB (work_mem)
  kEnum,
  kDateStyle,
  kTimeZone,
  kEncoding,
  kSearchPath
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Status InvalidValue(const std::string& name, const std::string& value) {
  return Status::Error(sqlstate::kInvalidParameterValue,
                       "invalid value for parameter \"" + name + "\": \"" + value + "\"");
}

// PostgreSQL's parse_bool: true/false, yes/no, on/off, 1/0 and unique prefixes.
std::optional<bool> ParseBool(const std::string& v) {
  const std::string s = Lower(v);
  if (s.empty()) return std::nullopt;
  auto prefix_of = [&](const char* word) { return std::string_view(word).starts_with(s); };
  if (prefix_of("true") || prefix_of("yes") || s == "on" || s == "1") return true;
  if (prefix_of("false") || prefix_of("no") || s == "off" || s == "of" || s == "0") {
    return s == "o" ? std::nullopt : std::optional<bool>(false);
  }
  return std::nullopt;
}

// "5s", "100ms", "1min", "2h", "1d", or a bare number of milliseconds.
std::optional<int64_t> ParseMilliseconds(const std::string& v) {
  std::string s = Lower(v);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  int64_t n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end == s.data()) return std::nullopt;
  const char* stop = s.data() + s.size();
  std::string unit(end, stop);
  while (!unit.empty() && unit.front() == ' ') unit.erase(unit.begin());
  int64_t scale = 1;
  if (unit.empty() || unit == "ms") {
    scale = 1;
  } else if (unit == "s") {
    scale = 1000;
  } else if (unit == "min") {
    scale = 60 * 1000;
  } else if (unit == "h") {
    scale = 3600 * 1000;
  } else if (unit == "d") {
    scale = 86400 * 1000;
  } else {
    return std::nullopt;
  }
  if (n > std::numeric_limits<int32_t>::max() / scale ||
      n < std::numeric_limits<int32_t>::min() / scale) {
    return std::numeric_limits<int64_t>::max();
  }
  return n * scale;
}

// "64kB", "4MB", "1GB", "1TB", "65536" (kB) or "1048576B": kB, rounded up; nullopt when
// malformed. Units are case-sensitive, as in PostgreSQL.
std::optional<int64_t> ParseKilobytes(const std::string& v) {
  std::string s = v;
  while (!s.empty() && s.back() == ' ') s.pop_back();
  int64_t n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end == s.data() || n < 0) return std::nullopt;
  std::string unit(end, static_cast<const char*>(s.data() + s.size()));
  while (!unit.empty() && unit.front() == ' ') unit.erase(unit.begin());
  constexpr int64_t kMax = int64_t{1} << 40;
  if (unit == "B") return (n + 1023) / 1024;
  int64_t scale = 0;
  if (unit.empty() || unit == "kB") {
    scale = 1;
  } else if (unit == "MB") {
    scale = 1024;
  } else if (unit == "GB") {
    scale = 1024 * 1024;
  } else if (unit == "TB") {
    scale = 1024 * 1024 * 1024;
  } else {
    return std::nullopt;
  }
  return n > kMax / scale ? kMax : n * scale;
}

// SHOW's form of an amount of memory in kB: the largest unit that divides it ("4MB", "100kB").
std::string FormatKilobytes(int64_t kb) {
  static constexpr std::pair<int64_t, const char*> kUnits[] = {
      {int64_t{1} << 30, "TB"}, {int64_t{1} << 20, "GB"}, {int64_t{1} << 10, "MB"}, {1, "kB"}};
  for (const auto& [size, name] : kUnits) {
    if (kb != 0 && kb % size == 0) return std::to_string(kb / size) + name;
  }
  return std::to_string(kb) + "kB";
}

// SHOW's form of a duration: the largest unit that divides it exactly ("5s", "1500ms", "0").
std::string FormatMilliseconds(int64_t ms) {
  if (ms == 0) return "0";
  struct Unit {
    int64_t size;
    const char* name;
  };
  static constexpr Unit kUnits[] = {
      {86400000, "d"}, {3600000, "h"}, {60000, "min"}, {1000, "s"}, {1, "ms"}};
  for (const Unit& u : kUnits) {
    if (ms % u.size == 0) return std::to_string(ms / u.size) + u.name;
  }
  return std::to_string(ms) + "ms";
}

}  // namespace

struct SessionSettings::Param {
  const char* name;           // canonical spelling (SHOW's column name)
  const char* default_value;  // nullptr: computed (server_version, session_authorization, ...)
  Kind kind;
  bool report;     // sent with ParameterStatus (GUC_REPORT)
  bool read_only;  // SET fails with 55P02
  const char* description;
  const char* options = "";  // kEnum: values separated by '|'
  int64_t min = 0, max = 0;  // kInt
};

namespace {

constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();

}  // namespace

std::span<const SessionSettings::Param> SessionSettings::Params() {
  static const Param kParams[] = {
      {"application_name", nullptr, Kind::kString, true, false,
       "Sets the application name to be reported in statistics and logs."},
      {"block_size", "8192", Kind::kString, false, true, "Shows the size of a disk block."},
      {"bytea_output", "hex", Kind::kEnum, false, false, "Sets the output format for bytea.",
       "hex|escape"},
      {"client_encoding", "UTF8", Kind::kEncoding, true, false,
       "Sets the client's character set encoding."},
      {"client_min_messages", "notice", Kind::kEnum, false, false,
       "Sets the message levels that are sent to the client.",
       "debug5|debug4|debug3|debug2|debug1|log|notice|warning|error"},
      {"DateStyle", "ISO, MDY", Kind::kDateStyle, true, false,
       "Sets the display format for date and time values."},
      {"default_transaction_isolation", "read committed", Kind::kEnum, false, false,
       "Sets the transaction isolation level of each new transaction.",
       "serializable|repeatable read|read committed|read uncommitted"},
      {"default_transaction_read_only", "off", Kind::kBool, true, false,
       "Sets the default read-only status of new transactions."},
      {"extra_float_digits", "1", Kind::kInt, false, false,
       "Sets the number of digits displayed for floating-point values.", "", -15, 3},
      {"idle_in_transaction_session_timeout", "0", Kind::kMilliseconds, false, false,
       "Sets the maximum allowed idle time between queries, when in a transaction (stored "
       "only)."},
      {"idle_session_timeout", "0", Kind::kMilliseconds, false, false,
       "Sets the maximum allowed idle time between queries, when not in a transaction (stored "
       "only)."},
      {"in_hot_standby", "off", Kind::kBool, true, true,
       "Shows whether hot standby is currently active."},
      {"integer_datetimes", "on", Kind::kBool, true, true,
       "Shows whether datetimes are integer based."},
      {"IntervalStyle", "postgres", Kind::kEnum, true, false,
       "Sets the display format for interval values.",
       "postgres|postgres_verbose|sql_standard|iso_8601"},
      {"is_superuser", "on", Kind::kBool, true, true,
       "Shows whether the current user is a superuser."},
      {"lc_collate", "C", Kind::kString, false, true, "Shows the collation order locale."},
      {"lc_ctype", "C", Kind::kString, false, true,
       "Shows the character classification and case conversion locale."},
      {"lock_timeout", "0", Kind::kMilliseconds, false, false,
       "Sets the maximum allowed duration of any wait for a lock (stored only)."},
      {"max_identifier_length", "63", Kind::kString, false, true,
       "Shows the maximum identifier length."},
      {"row_security", "on", Kind::kBool, false, false, "Enable row security."},
      {"search_path", "\"$user\", public", Kind::kSearchPath, false, false,
       "Sets the schema search order for names that are not schema-qualified."},
      {"server_encoding", "UTF8", Kind::kString, true, true,
       "Shows the server (database) character set encoding."},
      {"server_version", nullptr, Kind::kString, true, true, "Shows the server version."},
      {"server_version_num", kPgVersionNum, Kind::kString, false, true,
       "Shows the server version as an integer."},
      {"session_authorization", nullptr, Kind::kString, true, true, "Sets the session user name."},
      {"standard_conforming_strings", "on", Kind::kBool, true, false,
       "Causes '...' strings to treat backslashes literally."},
      {"statement_timeout", "0", Kind::kMilliseconds, false, false,
       "Sets the maximum allowed duration of any statement."},
      {"synchronous_commit", "on", Kind::kEnum, false, false,
       "Sets the current transaction's synchronization level (off: asynchronous commit).",
       "local|remote_write|remote_apply|on|off"},
      {"TimeZone", "UTC", Kind::kTimeZone, true, false,
       "Sets the time zone for displaying and interpreting time stamps."},
      {"transaction_isolation", "read committed", Kind::kEnum, false, false,
       "Sets the current transaction's isolation level.",
       "serializable|repeatable read|read committed|read uncommitted"},
      {"transaction_read_only", "off", Kind::kBool, false, false,
       "Sets the current transaction's read-only status."},
      {"check_function_bodies", "on", Kind::kBool, false, false,
       "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE (stored only: there "
       "are no routines)."},
      {"default_table_access_method", "heap", Kind::kEnum, false, false,
       "Sets the default table access method for new tables.", "heap"},
      {"default_tablespace", "", Kind::kString, false, false,
       "Sets the default tablespace to create tables and indexes in (stored only: there is one "
       "tablespace)."},
      {"xmloption", "content", Kind::kEnum, false, false,
       "Sets whether XML data in implicit parsing and serialization operations is to be "
       "considered as documents or content fragments (stored only: there is no xml type).",
       "content|document"},
      {"synchronize_seqscans", "on", Kind::kBool, false, false,
       "Enable synchronized sequential scans (stored only: scans always start at the first "
       "page)."},
      {"quote_all_identifiers", "off", Kind::kBool, false, false,
       "When generating SQL fragments, quote all identifiers (stored only)."},
      {"work_mem", "64MB", Kind::kKilobytes, false, false,
       "Sets the maximum memory to be used for query workspaces (a sort spills to temporary "
       "files beyond it).",
       "", 64, 2147483647},
  };
  return kParams;
}

const SessionSettings::Param* SessionSettings::Find(std::string_view name) {
  const std::string lower = Lower(name);
  for (const Param& p : Params()) {
    if (Lower(p.name) == lower) return &p;
  }
  return nullptr;
}

namespace {

uint64_t NextSessionId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

SessionSettings::SessionSettings(std::string user, std::string database,
                                 std::string application_name)
    : user_(std::move(user)), database_(std::move(database)), session_id_(NextSessionId()) {
  values_["application_name"] = std::move(application_name);
  startup_application_name_ = values_["application_name"];
  txn_block_ = std::make_shared<TransactionBlock>();
  prepared_ = std::make_shared<PreparedStatements>();
  sequence_values_ = std::make_shared<SequenceValues>();
  CacheDerived();
  zone_ = datetime::FindTimeZone("UTC");
}

SessionSettings::~SessionSettings() = default;

std::string SessionSettings::ColumnName(std::string_view name) {
  const Param* p = Find(name);
  return p != nullptr ? p->name : Lower(name);
}

std::string SessionSettings::ShowOr(std::string_view name, const char* fallback) const {
  auto v = Show(name);
  return v.ok() ? *v : std::string(fallback);
}

Result<std::string> SessionSettings::Show(std::string_view name) const {
  const Param* p = Find(name);
  if (p == nullptr) {
    auto it = custom_.find(Lower(name));
    if (it != custom_.end()) return it->second;
    return Status::Error(sqlstate::kUndefinedObject,
                         "unrecognized configuration parameter \"" + std::string(name) + "\"");
  }
  const std::string_view n = p->name;
  if (n == "transaction_isolation" && txn_block_->active()) return txn_block_->isolation_name();
  if (n == "transaction_isolation")
    return ShowOr("default_transaction_isolation", "read committed");
  if (n == "transaction_read_only") {
    const bool on = txn_block_->active() ? txn_block_->read_only() : default_read_only_;
    return std::string(on ? "on" : "off");
  }
  if (auto it = values_.find(p->name); it != values_.end()) return it->second;
  if (n == "server_version") return std::string(kPgVersionNumber) + " (" + kProductVersion + ")";
  if (n == "session_authorization") return user_;
  return std::string(p->default_value);
}

void SessionSettings::CacheDerived() {
  statement_timeout_ms_ = ParseMilliseconds(ShowOr("statement_timeout", "0")).value_or(0);
  lock_timeout_ms_ = ParseMilliseconds(ShowOr("lock_timeout", "0")).value_or(0);
  work_mem_bytes_ = ParseKilobytes(ShowOr("work_mem", "64MB")).value_or(65536) * 1024;
  synchronous_commit_ = ShowOr("synchronous_commit", "on") != "off";
  const std::string level = ShowOr("default_transaction_isolation", "read committed");
  default_repeatable_read_ = level == "repeatable read" || level == "serializable";
  default_read_only_ = ShowOr("default_transaction_read_only", "off") == "on";
  zone_ = datetime::FindTimeZone(ShowOr("TimeZone", "UTC"));
  if (zone_ == nullptr) zone_ = datetime::FindTimeZone("UTC");
  auto path = std::make_shared<catalog::SearchPath>();
  path->schemas = catalog::ParseSearchPath(ShowOr("search_path", "\"$user\", public"));
  path->user = user_;
  path->session = session_id_;
  path->settings = [this] { return ShowAll(); };
  if (search_path_ != nullptr && search_path_->schemas != path->schemas) {
    catalog::NoteSearchPathChange();
  }
  search_path_ = std::move(path);
}

Status SessionSettings::Store(const Param& p, std::string value) {
  const std::string old = ShowOr(p.name, "");
  values_[p.name] = value;
  CacheDerived();
  if (p.report && old != value) changed_.insert(p.name);
  return Status::Ok();
}

Result<std::string> SessionSettings::SetImpl(std::string_view name,
                                             const std::vector<std::string>& values) {
  const Param* p = Find(name);
  if (p == nullptr) {
    if (name.find('.') != std::string_view::npos) {  // a custom (placeholder) parameter
      std::string joined;
      for (const std::string& v : values) joined += (joined.empty() ? "" : ", ") + v;
      custom_[Lower(name)] = joined;
      return joined;
    }
    return Status::Error(sqlstate::kUndefinedObject,
                         "unrecognized configuration parameter \"" + std::string(name) + "\"");
  }
  const std::string pname = p->name;
  if (p->read_only) {
    return Status::Error(sqlstate::kCantChangeRuntimeParam,
                         "parameter \"" + pname + "\" cannot be changed");
  }
  if (values.size() != 1 && p->kind != Kind::kSearchPath && p->kind != Kind::kDateStyle) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         "SET " + pname + " takes only one argument");
  }
  const std::string& v = values.empty() ? std::string() : values[0];
  std::string value;
  switch (p->kind) {
    case Kind::kString:
      value = v;
      break;
    case Kind::kBool: {
      std::optional<bool> b = ParseBool(v);
      if (!b) {
        return Status::Error(sqlstate::kInvalidParameterValue,
                             "parameter \"" + pname + "\" requires a Boolean value");
      }
      if (pname == "standard_conforming_strings" && !*b) {
        return Status::NotSupported("standard_conforming_strings = off is not supported");
      }
      value = *b ? "on" : "off";
      if (pname == "transaction_read_only") {  // the open block's mode (SET TRANSACTION)
        MERIDIAN_RETURN_IF_ERROR(txn_block_->SetReadOnly(*b));
        return value;
      }
      break;
    }
    case Kind::kInt: {
      int64_t n = 0;
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec != std::errc() || end != v.data() + v.size()) return InvalidValue(pname, v);
      if (n < p->min || n > p->max) {
        return Status::Error(sqlstate::kInvalidParameterValue,
                             std::to_string(n) + " is outside the valid range for parameter \"" +
                                 pname + "\" (" + std::to_string(p->min) + " .. " +
                                 std::to_string(p->max) + ")");
      }
      value = std::to_string(n);
      break;
    }
    case Kind::kMilliseconds: {
      std::optional<int64_t> ms = ParseMilliseconds(v);
      if (!ms) {
        return InvalidValue(pname, v).WithHint(
            "Valid units for this parameter are \"ms\", \"s\", \"min\", \"h\", and \"d\".");
      }
      if (*ms < 0 || *ms > kIntMax) {
        return Status::Error(
            sqlstate::kInvalidParameterValue,
            v + " is outside the valid range for parameter \"" + pname + "\" (0 .. 2147483647)");
      }
      value = FormatMilliseconds(*ms);
      break;
    }
    case Kind::kKilobytes: {
      std::optional<int64_t> kb = ParseKilobytes(v);
      if (!kb) {
        return InvalidValue(pname, v).WithHint(
            "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".");
      }
      if (*kb < p->min || *kb > p->max) {
        return Status::Error(
            sqlstate::kInvalidParameterValue,
            std::to_string(*kb) + " kB is outside the valid range for parameter \"" + pname +
                "\" (" + std::to_string(p->min) + " .. " + std::to_string(p->max) + ")");
      }
      value = FormatKilobytes(*kb);
      break;
    }
    case Kind::kEnum: {
      const std::string want = Lower(v);
      std::string options = p->options, hint;
      size_t start = 0;
      while (start <= options.size()) {
        size_t bar = options.find('|', start);
        if (bar == std::string::npos) bar = options.size();
        std::string option = options.substr(start, bar - start);
        if (option == want) value = option;
        hint += (hint.empty() ? "" : ", ") + option;
        start = bar + 1;
      }
      if (value.empty()) {
        return InvalidValue(pname, v).WithHint("Available values: " + hint + ".");
      }
      if (pname == "bytea_output" && value == "escape") {  // bytea is always output in hex
        return Status::NotSupported("bytea_output = escape is not supported");
      }
      break;
    }
    case Kind::kDateStyle: {
      // Output style and field order, each optional; the other keeps its current value.
      std::string current = ShowOr(pname, "ISO, MDY");
      std::string style = current.substr(0, current.find(','));
      std::string order = current.substr(current.find(',') + 2);
      for (const std::string& item : values) {
        std::string word;
        for (size_t i = 0; i <= item.size(); ++i) {
          if (i < item.size() && item[i] != ',' && item[i] != ' ') {
            word += item[i];
            continue;
          }
          if (word.empty()) continue;
          const std::string w = Lower(word);
          if (w == "iso") {
            style = "ISO";
          } else if (w == "sql") {
            style = "SQL";
          } else if (w == "postgres") {
            style = "Postgres";
          } else if (w == "german") {
            style = "German";
          } else if (w == "ymd") {
            order = "YMD";
          } else if (w == "dmy" || w == "euro" || w == "european") {
            order = "DMY";
          } else if (w == "mdy" || w == "us" || w == "noneuro" || w == "noneuropean") {
            order = "MDY";
          } else if (w != "default") {
            return InvalidValue(pname, item).WithDetail("Unrecognized key word: \"" + word + "\".");
          }
          word.clear();
        }
      }
      value = style + ", " + order;
      break;
    }
    case Kind::kTimeZone: {
      if (v.empty()) return InvalidValue(pname, v);
      for (char c : v) {
        if (!std::isalnum(static_cast<unsigned char>(c)) &&
            std::string_view("/_+-:.").find(c) == std::string_view::npos) {
          return InvalidValue(pname, v);
        }
      }
      const std::string l = Lower(v);
      std::shared_ptr<const datetime::TimeZone> zone = datetime::FindTimeZone(v);
      if (zone == nullptr) return InvalidValue(pname, v);
      // 'europe/berlin' shows as the zone file is spelled, as PostgreSQL's SHOW does.
      value = (l == "utc" || l == "gmt" || l == "z" || l == "etc/utc") ? "UTC" : zone->name();
      break;
    }
    case Kind::kEncoding: {
      const std::string l = Lower(v);
      if (l != "utf8" && l != "utf-8" && l != "unicode") {
        return Status::NotSupported("client_encoding \"" + v + "\" is not supported")
            .WithDetail("Meridian sends and receives UTF8 only.");
      }
      value = "UTF8";
      break;
    }
    case Kind::kSearchPath:
      for (const std::string& item : values) {
        value += (value.empty() ? "" : ", ") + catalog::QuoteIdent(item);
      }
      break;
  }
  MERIDIAN_RETURN_IF_ERROR(Store(*p, value));
  return value;
}

Status SessionSettings::ResetImpl(std::string_view name) {
  if (Lower(name) == "all") {
    std::vector<std::string> names;
    for (const auto& [n, v] : values_) names.push_back(n);
    for (const std::string& n : names) MERIDIAN_RETURN_IF_ERROR(ResetImpl(n));
    custom_.clear();
    return Status::Ok();
  }
  const Param* p = Find(name);
  if (p == nullptr) {
    if (custom_.erase(Lower(name)) > 0 || name.find('.') != std::string_view::npos) {
      return Status::Ok();
    }
    return Status::Error(sqlstate::kUndefinedObject,
                         "unrecognized configuration parameter \"" + std::string(name) + "\"");
  }
  if (p->read_only) {
    return Status::Error(sqlstate::kCantChangeRuntimeParam,
                         "parameter \"" + std::string(p->name) + "\" cannot be changed");
  }
  // application_name returns to the value the client connected with, the rest to the default.
  std::string value = std::string_view(p->name) == "application_name"
                          ? startup_application_name_
                          : std::string(p->default_value);
  const std::string old = ShowOr(p->name, "");
  values_.erase(p->name);
  if (std::string_view(p->name) == "application_name") values_[p->name] = value;
  CacheDerived();
  if (p->report && old != value) changed_.insert(p->name);
  return Status::Ok();
}

std::vector<std::vector<std::string>> SessionSettings::ShowAll() const {
  std::vector<std::vector<std::string>> rows;
  for (const Param& p : Params()) {
    const char* vartype = p.kind == Kind::kBool   ? "bool"
                          : p.kind == Kind::kInt  ? "integer"
                          : p.kind == Kind::kEnum ? "enum"
                                                  : "string";
    rows.push_back(
        {p.name, ShowOr(p.name, ""), p.description, vartype, p.read_only ? "internal" : "user"});
  }
  for (const auto& [name, value] : custom_) rows.push_back({name, value, "", "string", "user"});
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return Lower(a[0]) < Lower(b[0]); });
  return rows;
}

std::vector<std::pair<std::string, std::string>> SessionSettings::Reported() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* name :
       {"application_name", "client_encoding", "DateStyle", "default_transaction_read_only",
        "in_hot_standby", "integer_datetimes", "IntervalStyle", "is_superuser", "server_encoding",
        "server_version", "session_authorization", "standard_conforming_strings", "TimeZone"}) {
    out.emplace_back(name, ShowOr(name, ""));
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> SessionSettings::TakeChanged() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& name : changed_) out.emplace_back(name, ShowOr(name, ""));
  changed_.clear();
  return out;
}

}  // namespace meridian::exec

namespace meridian::exec {

Result<std::string> SessionSettings::Set(std::string_view name,
                                         const std::vector<std::string>& values) {
  BeforeChange();
  MERIDIAN_ASSIGN_OR_RETURN(std::string shown, SetImpl(name, values));
  KeepAtCommit(name);
  return shown;
}

Result<std::string> SessionSettings::SetLocal(std::string_view name,
                                              const std::vector<std::string>& values) {
  BeforeChange();
  return SetImpl(name, values);  // not noted in txn_->commit: it lasts until the end
}

Status SessionSettings::Reset(std::string_view name) {
  BeforeChange();
  MERIDIAN_RETURN_IF_ERROR(ResetImpl(name));
  KeepAtCommit(name);
  return Status::Ok();
}

Status SessionSettings::ResetLocal(std::string_view name) {
  BeforeChange();
  return ResetImpl(name);
}

void SessionSettings::BeforeChange() {
  if (!txn_ || txn_->changed) return;
  txn_->changed = true;
  txn_->begin = Snapshot{values_, custom_};
  txn_->commit = txn_->begin;
}

void SessionSettings::KeepAtCommit(std::string_view name) {
  if (!txn_ || !txn_->changed) return;
  if (Lower(name) == "all") {
    txn_->commit = Snapshot{values_, custom_};
    return;
  }
  auto copy = [](const std::map<std::string, std::string>& from, const std::string& key,
                 std::map<std::string, std::string>* to) {
    auto it = from.find(key);
    if (it == from.end()) {
      to->erase(key);
    } else {
      (*to)[key] = it->second;
    }
  };
  if (const Param* p = Find(name)) {
    copy(values_, p->name, &txn_->commit.values);
  } else {
    copy(custom_, Lower(name), &txn_->commit.custom);
  }
}

void SessionSettings::Install(const Snapshot& snapshot) {
  const std::vector<std::pair<std::string, std::string>> before = Reported();
  values_ = snapshot.values;
  custom_ = snapshot.custom;
  CacheDerived();
  for (const auto& [name, old] : before) {
    if (ShowOr(name, "") != old) changed_.insert(name);
  }
}

void SessionSettings::TransactionBegun() { txn_ = TxnSettings{}; }

void SessionSettings::TransactionEnded(bool committed) {
  if (!txn_) return;
  if (!txn_->changed) {  // nothing was set: nothing to restore
    txn_.reset();
    return;
  }
  const Snapshot next = committed ? std::move(txn_->commit) : std::move(txn_->begin);
  txn_.reset();
  Install(next);
}

void SessionSettings::SavepointSet() {
  if (!txn_) return;
  if (!txn_->changed) {
    txn_->savepoints.emplace_back(std::nullopt);
  } else {
    txn_->savepoints.emplace_back(std::make_pair(Snapshot{values_, custom_}, txn_->commit));
  }
}

void SessionSettings::SavepointsKept(size_t count) {
  if (txn_ && txn_->savepoints.size() > count) txn_->savepoints.resize(count);
}

void SessionSettings::RollbackToSavepoint(size_t index) {
  if (!txn_ || index >= txn_->savepoints.size()) return;
  const std::optional<std::pair<Snapshot, Snapshot>> at = txn_->savepoints[index];
  txn_->savepoints.resize(index + 1);
  if (!txn_->changed) return;  // nothing set since BEGIN
  if (!at) {  // nothing had been set when the savepoint was made: the values of BEGIN
    txn_->commit = txn_->begin;
    Install(txn_->begin);
    return;
  }
  txn_->commit = at->second;
  Install(at->first);
}

}  // namespace meridian::exec
