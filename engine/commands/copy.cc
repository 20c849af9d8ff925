// COPY in PostgreSQL's text and CSV formats. FROM STDIN: the client's data is cut into records
// as it arrives (a CSV quoted field may span lines), each record into fields, each field is
// converted with its column type's input rules; the rows go through the INSERT executor (NOT
// NULL, unique indexes, index maintenance) in batches as they arrive, all in one statement that
// CopyIn::Finish ends, so the COPY is all or nothing. TO STDOUT: a SELECT whose rows are formatted
// into lines.
#include <algorithm>
#include <charconv>
#include <cstdint>

#include "binder/binder.h"
#include "binder/type_rules.h"
#include "commands/utility_statements.h"
#include "execution/modify_table.h"
#include "main/session_settings.h"
#include "main/transaction_block.h"
#include "meridian/parser/utf8.h"

namespace meridian::exec {

namespace {

// The format options of a COPY statement.
struct CopyOptions {
  bool csv = false;
  bool header = false;
  char delimiter = '\t';
  char quote = '"';
  char escape = '"';
  std::string null_string;

  explicit CopyOptions(const ast::CopyStmt& s)
      : csv(s.csv),
        header(s.header),
        delimiter(s.delimiter),
        quote(s.quote),
        escape(s.escape),
        null_string(s.null_string) {}
};

// The rows parsed from the client's data, handed to the INSERT executor.
class RowsOp : public Operator {
 public:
  explicit RowsOp(std::vector<Row>* rows) : rows_(rows) {}
  Status Open(const EvalContext*, ExecContext*) override {
    next_ = 0;
    return Status::Ok();
  }
  Result<bool> Next(Row* row) override {
    if (next_ >= rows_->size()) return false;
    *row = std::move((*rows_)[next_++]);
    return true;
  }

 private:
  std::vector<Row>* rows_;
  size_t next_ = 0;
};

// "line 3: \"a\tb\"" style context text: the line shown as PostgreSQL shows it.
std::string Quoted(std::string_view s) {
  std::string out = "\"";
  out.append(s.substr(0, 200));
  if (s.size() > 200) out += "...";
  return out + "\"";
}

// Text format: one attribute with backslash escapes for backslash, the delimiter and control
// characters (PostgreSQL's CopyAttributeOutText).
void AppendText(std::string* out, std::string_view s, char delimiter) {
  for (char c : s) {
    switch (c) {
      case '\b':
        *out += "\\b";
        break;
      case '\f':
        *out += "\\f";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '\t':
        *out += "\\t";
        break;
      case '\v':
        *out += "\\v";
        break;
      default:
        if (c == '\\' || c == delimiter) *out += '\\';
        *out += c;
    }
  }
}

// CSV: quoted when it holds the delimiter, the quote, a line break, equals the NULL string or
// is a lone \. (the end-of-data marker); inside quotes the quote and escape characters are
// preceded by the escape character (PostgreSQL's CopyAttributeOutCSV).
void AppendCsv(std::string* out, std::string_view s, const CopyOptions& o, bool single) {
  bool quote = s == o.null_string || (single && s == "\\.");
  for (char c : s) {
    if (c == o.delimiter || c == o.quote || c == '\n' || c == '\r') quote = true;
  }
  if (!quote) {
    out->append(s);
    return;
  }
  *out += o.quote;
  for (char c : s) {
    if (c == o.quote || c == o.escape) *out += o.escape;
    *out += c;
  }
  *out += o.quote;
}

std::string FormatLine(const std::vector<std::optional<std::string>>& fields,
                       const CopyOptions& o) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += o.delimiter;
    if (!fields[i]) {
      line += o.null_string;
    } else if (o.csv) {
      AppendCsv(&line, *fields[i], o, fields.size() == 1);
    } else {
      AppendText(&line, *fields[i], o.delimiter);
    }
  }
  line += '\n';
  return line;
}

std::string TextOfValue(const Value& v) {
  if (v.IsBool()) return v.AsBool() ? "t" : "f";
  return v.ToString();
}

// COPY ... TO STDOUT over a SELECT cursor: each row becomes one formatted line.
class CopyToCursor : public QueryCursor {
 public:
  CopyToCursor(std::unique_ptr<QueryCursor> select, const ast::CopyStmt& options)
      : select_(std::move(select)), options_(options) {
    ncolumns_ = select_->columns().size();
    if (options_.header) {
      std::vector<std::optional<std::string>> names;
      for (const ColumnInfo& c : select_->columns()) names.emplace_back(c.name);
      header_ = FormatLine(names, options_);
    }
  }
  const std::vector<ColumnInfo>& columns() const override { return no_columns_; }
  bool copy_out() const override { return true; }
  size_t copy_columns() const override { return ncolumns_; }
  Result<bool> Fetch(size_t max_rows, size_t max_bytes, ExecControl& ctl,
                     std::vector<Row>* out) override {
    if (!header_.empty()) {
      out->push_back(Row{Value::String(std::move(header_))});
      header_.clear();
    }
    std::vector<Row> rows;
    MERIDIAN_ASSIGN_OR_RETURN(bool more, select_->Fetch(max_rows, max_bytes, ctl, &rows));
    std::vector<std::optional<std::string>> fields;
    for (const Row& row : rows) {
      fields.clear();
      for (const Value& v : row) {
        if (v.IsNull()) {
          fields.emplace_back(std::nullopt);
        } else {
          fields.emplace_back(TextOfValue(v));
        }
      }
      out->push_back(Row{Value::String(FormatLine(fields, options_))});
      ++rows_;
    }
    return more;
  }
  std::string CommandTag() const override { return "COPY " + std::to_string(rows_); }
  uint64_t RowCount() const override { return rows_; }

 private:
  std::unique_ptr<QueryCursor> select_;
  CopyOptions options_;
  std::vector<ColumnInfo> no_columns_;
  size_t ncolumns_ = 0;
  std::string header_;
  uint64_t rows_ = 0;
};

// COPY ... FROM STDIN.
class CopyFromCursor : public QueryCursor, public CopyIn {
 public:
  CopyFromCursor(const ast::CopyStmt& options, std::shared_ptr<const ast::InsertStmt> stmt,
                 std::unique_ptr<BoundInsert> insert, std::unique_ptr<catalog::LockSet> locks,
                 std::vector<int> targets, SessionSettings* settings, catalog::Catalog* catalog,
                 std::shared_ptr<SessionSettings> own_settings)
      : options_(options),
        stmt_(std::move(stmt)),
        insert_(std::move(insert)),
        locks_(std::move(locks)),
        targets_(std::move(targets)),
        settings_(settings),
        catalog_(catalog),
        own_settings_(std::move(own_settings)) {
    skip_header_ = options_.header;
  }

  // QueryCursor
  const std::vector<ColumnInfo>& columns() const override { return no_columns_; }
  Result<bool> Fetch(size_t, size_t, ExecControl&, std::vector<Row>*) override { return false; }
  std::string CommandTag() const override { return "COPY " + std::to_string(inserted_); }
  uint64_t RowCount() const override { return inserted_; }
  CopyIn* copy_in() override { return this; }

  // CopyIn
  size_t column_count() const override { return targets_.size(); }
  Status Write(std::string_view data, ExecControl& ctl) override {
    if (ended_) return Status::Ok();  // data after the \. marker is ignored, as PostgreSQL
    if (!failed_.ok()) return failed_;
    buffer_.append(data);
    Status st = ParseRecords(/*final=*/false);
    if (st.ok()) st = ctl.Check();
    if (st.ok() && rows_.size() >= kBatchRows && !HasOutboundForeignKeys()) st = InsertBatch(ctl);
    return st.ok() ? st : Fail(std::move(st));
  }
  Status Finish(ExecControl& ctl) override {
    if (!failed_.ok()) return failed_;
    Status st = ended_ ? Status::Ok() : ParseRecords(/*final=*/true);
    buffer_.clear();
    if (st.ok()) st = InsertBatch(ctl);
    if (!st.ok()) return Fail(std::move(st));
    entered_ = false;
    locks_->ReleaseAll();
    return settings_->txn_block().Leave(catalog_, *settings_, stx_, Status::Ok());
  }
  // A COPY the client abandoned (CopyFail, a vanished client) or the server refused midway
  // ends as a failed statement: its rows go, a transaction block fails.
  ~CopyFromCursor() override {
    if (entered_) (void)Fail(Status::Error(sqlstate::kQueryCanceled, "COPY from stdin ended"));
  }

 private:
  // Rows are inserted in batches of this many as the data arrives (memory stays bounded, and the
  // inserts overlap the client's sending), all in the statement's one transaction.
  static constexpr size_t kBatchRows = 10000;

  const std::string& table_name() const { return insert_->table->name(); }

  // A row may reference one that comes later in the data (PostgreSQL checks foreign keys at
  // the statement's end): then every row is inserted at Finish, in one batch.
  bool HasOutboundForeignKeys() const { return !insert_->table->schema().foreign_keys.empty(); }

  // Inserts the rows parsed so far, entering the statement (its transaction, its table locks)
  // at the first batch.
  Status InsertBatch(ExecControl& ctl) {
    if (!entered_) {
      MERIDIAN_ASSIGN_OR_RETURN(stx_, settings_->txn_block().Enter(catalog_, *settings_));
      entered_ = true;
      MERIDIAN_RETURN_IF_ERROR(locks_->AcquireAll(&ctl));
      if (locks_->SchemaChanged()) MERIDIAN_RETURN_IF_ERROR(Rebind(ctl));
      insert_->source = std::make_unique<RowsOp>(&rows_);
    }
    ExecContext exec{&ctl, {}, settings_, catalog_, stx_.txn.get()};
    Result<uint64_t> n = ExecuteInsert(*insert_, &exec);
    rows_.clear();
    if (!n.ok()) return n.status();
    inserted_ += *n;
    return Status::Ok();
  }

  // Ends the statement with st (entering it first, so that a transaction block fails as for
  // any failed statement); later Write and Finish calls return st.
  Status Fail(Status st) {
    failed_ = st;
    rows_.clear();
    buffer_.clear();
    TransactionBlock& block = settings_->txn_block();
    if (!entered_) {
      Result<TransactionBlock::StatementTxn> stx = block.Enter(catalog_, *settings_);
      if (!stx.ok()) return failed_;  // a block that had failed already
      stx_ = std::move(stx).value();
    }
    entered_ = false;
    locks_->ReleaseAll();
    (void)block.Leave(catalog_, *settings_, stx_, st);
    return failed_;
  }

  // An ALTER TABLE changed the table since COPY started: the same INSERT INTO t (columns) is
  // bound again (the parsed rows keep their columns: names and types do not change, and a
  // column renamed or dropped meanwhile is 42703 now) and its locks taken instead.
  Status Rebind(ExecControl& ctl) {
    locks_->ReleaseAll();
    auto locks = std::make_unique<catalog::LockSet>();
    Binder binder(catalog_, locks.get(), nullptr);
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundInsert> bound, binder.BindInsert(*stmt_));
    MERIDIAN_RETURN_IF_ERROR(locks->AcquireAll(&ctl));
    bound->source = std::move(insert_->source);
    insert_ = std::move(bound);
    locks_ = std::move(locks);
    return locks_->SchemaChanged() ? Rebind(ctl) : Status::Ok();
  }

  // Cuts complete records off the front of buffer_ (with final, the rest too) and parses them.
  Status ParseRecords(bool final) {
    size_t pos = 0;
    while (pos < buffer_.size() && !ended_) {
      size_t end = 0, next = 0;
      if (!FindRecordEnd(pos, &end, &next)) {
        if (!final) break;
        if (options_.csv && in_quote_at_end_) {
          return Status::Error(sqlstate::kBadCopyFileFormat, "unterminated CSV quoted field")
              .WithContext("COPY " + table_name() + ", line " + std::to_string(line_ + 1) + ": " +
                           Quoted(std::string_view(buffer_).substr(pos)));
        }
        end = next = buffer_.size();
      }
      std::string_view record(buffer_.data() + pos, end - pos);
      pos = next;
      ++line_;
      MERIDIAN_RETURN_IF_ERROR(ParseRecord(record));
    }
    buffer_.erase(0, pos);
    return Status::Ok();
  }

  // The end of the record starting at pos: [pos, *end) is its text, *next the start of the
  // following one. False when the buffer holds no complete record yet.
  bool FindRecordEnd(size_t pos, size_t* end, size_t* next) {
    bool in_quote = false;
    for (size_t i = pos; i < buffer_.size(); ++i) {
      const char c = buffer_[i];
      if (options_.csv) {
        if (in_quote && c == options_.escape && options_.escape != options_.quote &&
            i + 1 < buffer_.size() &&
            (buffer_[i + 1] == options_.quote || buffer_[i + 1] == options_.escape)) {
          ++i;
          continue;
        }
        if (c == options_.quote) {
          in_quote = !in_quote;
          continue;
        }
        if (in_quote) continue;
      } else if (c == '\\') {
        ++i;  // the escaped character is data, even a line break
        continue;
      }
      if (c == '\n' || c == '\r') {
        *end = i;
        *next = i + 1;
        if (c == '\r') {
          if (i + 1 >= buffer_.size()) {
            in_quote_at_end_ = false;
            return false;  // a \n may follow in the next piece
          }
          if (buffer_[i + 1] == '\n') *next = i + 2;
        }
        return true;
      }
    }
    in_quote_at_end_ = in_quote;
    return false;
  }

  Status ParseRecord(std::string_view record) {
    if (record == "\\.") {  // end-of-data marker
      ended_ = true;
      return Status::Ok();
    }
    if (skip_header_) {
      skip_header_ = false;
      return Status::Ok();
    }
    std::vector<std::optional<std::string>>& fields = fields_;  // reused: no allocation per record
    fields.clear();
    MERIDIAN_RETURN_IF_ERROR(options_.csv ? SplitCsv(record, &fields) : SplitText(record, &fields));
    const catalog::TableSchema& schema = insert_->table->schema();
    auto line_context = [&] {
      return "COPY " + table_name() + ", line " + std::to_string(line_) + ": " + Quoted(record);
    };
    if (fields.size() > targets_.size()) {
      return Status::Error(sqlstate::kBadCopyFileFormat, "extra data after last expected column")
          .WithContext(line_context());
    }
    if (fields.size() < targets_.size()) {
      return Status::Error(
                 sqlstate::kBadCopyFileFormat,
                 "missing data for column \"" + schema.columns[targets_[fields.size()]].name + "\"")
          .WithContext(line_context());
    }
    Row row;
    row.reserve(fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
      if (!fields[i]) {
        row.push_back(Value::Null());
        continue;
      }
      const catalog::Column& col = schema.columns[targets_[i]];
      if (std::optional<int64_t> n = PlainInteger(*fields[i], col.type)) {
        row.push_back(Value::Int(*n));
        continue;
      }
      auto v = AssignValue(Value::String(*fields[i]), Type::Unknown(), col.type);
      if (!v.ok()) {
        return Status(v.status())
            .WithContext("COPY " + table_name() + ", line " + std::to_string(line_) + ", column " +
                         col.name + ": " + Quoted(*fields[i]));
      }
      row.push_back(std::move(v).value());
    }
    rows_.push_back(std::move(row));
    return Status::Ok();
  }

  // A field of an integer column that is plain decimal digits (an optional '-') within the
  // type's range: its value without the generic input path (a string Value, then a cast). Any
  // other text (spaces, '+', out of range, garbage) goes that path and gets its errors.
  static std::optional<int64_t> PlainInteger(const std::string& f, const Type& type) {
    if (!type.IsIntegral() || f.empty() || f.size() > 19) return std::nullopt;
    int64_t v = 0;
    auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    if (ec != std::errc() || end != f.data() + f.size()) return std::nullopt;
    const int64_t limit = type.id == TypeId::kSmallInt  ? 32767
                          : type.id == TypeId::kInteger ? 2147483647
                                                        : INT64_MAX;
    if (v > limit || v < -limit - 1) return std::nullopt;
    return v;
  }

  // Text format: fields split at unescaped delimiters; a raw field equal to the NULL string is
  // NULL; escapes \b \f \n \r \t \v, \ooo (octal), \xhh (hex), \c = c.
  Status SplitText(std::string_view record, std::vector<std::optional<std::string>>* fields) {
    size_t start = 0;
    while (true) {
      size_t i = start;
      while (i < record.size() && record[i] != options_.delimiter) {
        i += record[i] == '\\' ? 2 : 1;
      }
      i = std::min(i, record.size());
      std::string_view raw = record.substr(start, i - start);
      if (raw == options_.null_string) {
        fields->emplace_back(std::nullopt);
      } else {
        std::string value;
        for (size_t k = 0; k < raw.size(); ++k) {
          char c = raw[k];
          if (c != '\\' || k + 1 >= raw.size()) {
            value += c;
            continue;
          }
          c = raw[++k];
          auto hex = [](char h) {
            return std::isdigit(static_cast<unsigned char>(h)) ? h - '0'
                                                               : std::tolower(h) - 'a' + 10;
          };
          if (c >= '0' && c <= '7') {
            int v = c - '0';
            for (int n = 0; n < 2 && k + 1 < raw.size() && raw[k + 1] >= '0' && raw[k + 1] <= '7';
                 ++n) {
              v = v * 8 + (raw[++k] - '0');
            }
            value += static_cast<char>(v & 0xFF);
          } else if (c == 'x' && k + 1 < raw.size() &&
                     std::isxdigit(static_cast<unsigned char>(raw[k + 1]))) {
            int v = hex(raw[++k]);
            if (k + 1 < raw.size() && std::isxdigit(static_cast<unsigned char>(raw[k + 1]))) {
              v = v * 16 + hex(raw[++k]);
            }
            value += static_cast<char>(v);
          } else {
            switch (c) {
              case 'b':
                value += '\b';
                break;
              case 'f':
                value += '\f';
                break;
              case 'n':
                value += '\n';
                break;
              case 'r':
                value += '\r';
                break;
              case 't':
                value += '\t';
                break;
              case 'v':
                value += '\v';
                break;
              default:
                value += c;
            }
          }
        }
        if (!parser::IsValidUtf8(value)) {
          return Status::Error(sqlstate::kCharacterNotInRepertoire,
                               "invalid byte sequence for encoding \"UTF8\"")
              .WithContext("COPY " + table_name() + ", line " + std::to_string(line_));
        }
        fields->emplace_back(std::move(value));
      }
      if (i >= record.size()) return Status::Ok();
      start = i + 1;
    }
  }

  // CSV: fields split at delimiters outside quotes; quote characters toggle quoting anywhere in
  // a field; inside quotes the escape character makes the next quote or escape literal (a
  // doubled quote by default). An unquoted field equal to the NULL string is NULL.
  Status SplitCsv(std::string_view record, std::vector<std::optional<std::string>>* fields) {
    std::string value;
    bool quoted = false, in_quote = false;
    size_t raw_start = 0;
    for (size_t i = 0; i <= record.size(); ++i) {
      if (i == record.size() || (!in_quote && record[i] == options_.delimiter)) {
        std::string_view raw = record.substr(raw_start, i - raw_start);
        if (!quoted && raw == options_.null_string) {
          fields->emplace_back(std::nullopt);
        } else {
          fields->emplace_back(std::move(value));
        }
        value.clear();
        quoted = in_quote = false;
        raw_start = i + 1;
        continue;
      }
      const char c = record[i];
      if (in_quote && c == options_.escape && i + 1 < record.size() &&
          (record[i + 1] == options_.quote || record[i + 1] == options_.escape) &&
          (options_.escape != options_.quote || record[i + 1] == options_.quote)) {
        value += record[++i];
        continue;
      }
      if (c == options_.quote) {
        in_quote = !in_quote;
        quoted = true;
        continue;
      }
      value += c;
    }
    return Status::Ok();
  }

  CopyOptions options_;
  std::shared_ptr<const ast::InsertStmt> stmt_;  // what insert_ was bound from
  std::unique_ptr<BoundInsert> insert_;
  std::unique_ptr<catalog::LockSet> locks_;
  std::vector<int> targets_;  // table column of each field
  SessionSettings* settings_;
  catalog::Catalog* catalog_;
  std::shared_ptr<SessionSettings> own_settings_;
  std::vector<ColumnInfo> no_columns_;
  std::string buffer_;  // data received and not yet parsed
  std::vector<Row> rows_;
  std::vector<std::optional<std::string>> fields_;  // the current record's (ParseRecord)
  uint64_t line_ = 0;
  uint64_t inserted_ = 0;
  TransactionBlock::StatementTxn stx_;  // the statement's, from the first batch on
  bool entered_ = false;                // stx_ is open (Leave not called yet)
  Status failed_;                       // the error that ended the COPY
  bool skip_header_ = false;
  bool ended_ = false;
  bool in_quote_at_end_ = false;
};

}  // namespace

Result<std::unique_ptr<QueryCursor>> StartCopy(const ast::CopyStmt& stmt, catalog::Catalog* catalog,
                                               SessionSettings* settings,
                                               std::shared_ptr<SessionSettings> own_settings,
                                               std::shared_ptr<catalog::Transaction> txn) {
  // COPY of a view (either way) is 42809, as in PostgreSQL; COPY (SELECT ...) TO reads one.
  const bool system_schema = stmt.schema == "pg_catalog" || stmt.schema == "information_schema";
  const std::string written = ast::QualifyName(stmt.schema, stmt.table);  // catalog/namespace.h
  if (stmt.query == nullptr && !system_schema && catalog->Find(written) == nullptr &&
      catalog->FindView(written, settings != nullptr ? settings->session_id() : 0) != nullptr) {
    return Status::Error(sqlstate::kWrongObjectType, std::string("cannot copy ") +
                                                         (stmt.from ? "to" : "from") + " view \"" +
                                                         stmt.table + "\"")
        .WithHint(stmt.from ? "Views are not updatable in Meridian."
                            : "Try the COPY (SELECT ...) TO variant.")
        .WithPosition(stmt.table_loc.position);
  }
  if (!stmt.from) {
    if (stmt.query != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<QueryCursor> select,
                                StartSelect(*stmt.query, catalog, StatementParams{}, settings,
                                            std::move(own_settings), txn));
      return std::unique_ptr<QueryCursor>(std::make_unique<CopyToCursor>(std::move(select), stmt));
    }
    // COPY t (a, b) TO STDOUT is SELECT a, b FROM t (every column for none).
    ast::SelectStmt select;
    select.loc = stmt.table_loc;
    ast::TableRef ref;
    ref.name = stmt.table;
    ref.schema = stmt.schema;
    ref.loc = stmt.table_loc;
    select.from.push_back(std::move(ref));
    if (stmt.columns.empty()) {
      auto star = std::make_unique<ast::Expr>();
      star->kind = ast::ExprKind::kStar;
      star->loc = stmt.table_loc;
      select.items.push_back(ast::SelectItem{std::move(star), "", stmt.table_loc});
    }
    for (size_t i = 0; i < stmt.columns.size(); ++i) {
      auto col = std::make_unique<ast::Expr>();
      col->kind = ast::ExprKind::kColumnRef;
      col->name = stmt.columns[i];
      col->loc = stmt.column_locs[i];
      select.items.push_back(ast::SelectItem{std::move(col), "", stmt.column_locs[i]});
    }
    MERIDIAN_ASSIGN_OR_RETURN(
        std::unique_ptr<QueryCursor> cursor,
        StartSelect(select, catalog, StatementParams{}, settings, std::move(own_settings), txn));
    return std::unique_ptr<QueryCursor>(std::make_unique<CopyToCursor>(std::move(cursor), stmt));
  }

  if (system_schema) {
    return Status::Error(sqlstate::kInsufficientPrivilege,
                         "permission denied: \"" + stmt.table + "\" is a system catalog")
        .WithPosition(stmt.table_loc.position);
  }
  // Bound as INSERT INTO t (columns) with an explicit column list (every column for none);
  // the rows replace the source at Finish.
  auto locks = std::make_unique<catalog::LockSet>();
  Binder binder(catalog, locks.get(), nullptr);
  auto insert = std::make_shared<ast::InsertStmt>();
  insert->table = written;
  insert->table_loc = stmt.table_loc;
  insert->columns = stmt.columns;
  insert->column_locs = stmt.column_locs;
  if (insert->columns.empty()) {
    if (std::shared_ptr<catalog::Table> table = catalog->Find(written)) {
      const catalog::TableSchema& schema = table->schema();
      for (int c : schema.LiveColumns()) {
        insert->columns.push_back(schema.columns[c].name);
        insert->column_locs.push_back(stmt.table_loc);
      }
    }
  }
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundInsert> bound, binder.BindInsert(*insert));
  std::vector<int> targets(insert->columns.size(), -1);
  for (size_t c = 0; c < bound->column_source.size(); ++c) {
    if (bound->column_source[c] >= 0) targets[bound->column_source[c]] = static_cast<int>(c);
  }
  return std::unique_ptr<QueryCursor>(std::make_unique<CopyFromCursor>(
      stmt, std::move(insert), std::move(bound), std::move(locks), std::move(targets), settings,
      catalog, std::move(own_settings)));
}

}  // namespace meridian::exec
