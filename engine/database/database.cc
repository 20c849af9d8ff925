// Database, Session and Request: the public engine API (meridian/database.h) over parser/,
// exec/, catalog/ and storage/. An EngineCore (data-dir lock, buffer pool, catalog) is shared
// by the Database and every Session/Request/cursor made from it, so none of them dangles if
// the Database object goes first; after Close() every entry point fails with 57P01.
#include "meridian/database.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>

#include "catalog/catalog.h"
#include "database/data_dir_lock.h"
#include "execution/index_exprs.h"
#include "function/builtin.h"
#include "main/plan_cache.h"
#include "main/prepared.h"
#include "main/session_settings.h"
#include "main/statement.h"
#include "main/temp_tables.h"
#include "main/transaction_block.h"
#include "meridian/parser/parser.h"
#include "storage/buffer_pool.h"

namespace meridian {

namespace {

constexpr size_t kMinPoolPages = 16;

Status ClosedError() { return Status::Error(sqlstate::kAdminShutdown, "the database is closed"); }

struct EngineCore {
  DatabaseOptions options;
  std::unique_ptr<database::DataDirLock> lock;
  std::unique_ptr<storage::BufferPool> pool;
  std::unique_ptr<catalog::Catalog> catalog;  // destroyed before pool (declared after it)
  std::atomic<bool> closed{false};
  std::mutex close_mu;  // serialises Close

  Status Close() {
    std::lock_guard<std::mutex> guard(close_mu);
    if (closed.exchange(true)) return Status::Ok();
    Status st = catalog->Close();
    Status flush = pool->FlushAll();
    if (st.ok()) st = flush;
    lock.reset();
    return st;
  }
  ~EngineCore() {
    if (catalog != nullptr && pool != nullptr) (void)Close();
  }
};

// The statements of one parse, each shared with the request's parse (a prepared statement keeps
// its own after the request is gone).
using SharedStatements = std::vector<std::shared_ptr<const ast::Statement>>;

SharedStatements Share(std::vector<ast::Statement> statements) {
  auto all = std::make_shared<const std::vector<ast::Statement>>(std::move(statements));
  SharedStatements out;
  for (const ast::Statement& stmt : *all) out.emplace_back(all, &stmt);
  return out;
}

class RequestImpl : public Request {
 public:
  // plans: the prepared statement's plan cache when statements is one prepared statement.
  RequestImpl(std::shared_ptr<EngineCore> core, std::shared_ptr<exec::SessionSettings> settings,
              SharedStatements statements, std::shared_ptr<exec::PlanSlot> plans = nullptr)
      : core_(std::move(core)),
        settings_(std::move(settings)),
        statements_(std::move(statements)),
        plans_(std::move(plans)) {}
  size_t size() const override { return statements_.size(); }
  Result<std::unique_ptr<QueryCursor>> Start(size_t index, ExecControl& ctl) override {
    return Start(index, ctl, StatementParams{});
  }
  Result<std::unique_ptr<QueryCursor>> Start(size_t index, ExecControl& ctl,
                                             const StatementParams& params) override {
    if (index >= statements_.size()) {
      return Status::Internal("statement index " + std::to_string(index) + " out of range");
    }
    if (core_->closed.load()) return ClosedError();
    // statement_timeout counts from the statement's start (the client's deadline may be
    // earlier); a statement that sets it applies from the next one.
    if (int64_t ms = settings_->statement_timeout_ms(); ms > 0) {
      ctl.TightenDeadline(ExecControl::Clock::now() + std::chrono::milliseconds(ms));
    }
    Result<std::unique_ptr<QueryCursor>> cursor = exec::StartStatement(
        *statements_[index], core_->catalog.get(), ctl, params, settings_.get(), plans_);
    if (!prepared_columns_) return cursor;
    return exec::CheckCachedResult(*prepared_columns_, std::move(cursor), settings_.get());
  }
  bool QuickRead(size_t index) const override {
    return plans_ != nullptr && index < statements_.size() &&
           statements_[index]->kind == ast::StatementKind::kSelect &&
           plans_->HoldsQuickRead(core_->catalog->schema_version());
  }
  bool QuickWrite(size_t index, bool deferred_commit) const override {
    if (index >= statements_.size()) return false;
    const ast::Statement& stmt = *statements_[index];
    switch (stmt.kind) {
      case ast::StatementKind::kTransaction: {
        using Action = ast::TransactionStmt::Action;
        const Action a = stmt.transaction->action;
        // COMMIT: under ExecControl::defer_commit its group is written without a thread
        // waiting (PendingCommit); otherwise it refuses under no_wait unless it has nothing to
        // write (TransactionBlock::Execute).
        return a == Action::kBegin || a == Action::kSavepoint || a == Action::kRelease ||
               (a == Action::kCommit && settings_->txn_block().status() == 'T');
      }
      case ast::StatementKind::kSelect:
        // SELECT ... FOR UPDATE/SHARE inside a block: a refusal under no_wait rolls its lock
        // marks back with the statement (TransactionBlock::Leave). Not in autocommit, where
        // the locks would need a commit of their own.
        return plans_ != nullptr && settings_->txn_block().status() == 'T' &&
               plans_->HoldsQuickWrite(core_->catalog->schema_version());
      case ast::StatementKind::kInsert:
      case ast::StatementKind::kUpdate:
      case ast::StatementKind::kDelete: {
        // Autocommit: its commit too is deferred (TransactionBlock::Leave).
        const char status = settings_->txn_block().status();
        return plans_ != nullptr && (status == 'T' || (deferred_commit && status == 'I')) &&
               plans_->HoldsQuickWrite(core_->catalog->schema_version());
      }
      default:
        return false;
    }
  }
  PlanCacheStats plan_cache_stats() const override {
    return plans_ != nullptr ? plans_->stats() : PlanCacheStats{};
  }
  // The request of a prepared statement: its result columns may not change (prepared.h).
  void FixResult(std::vector<ColumnInfo> columns) { prepared_columns_ = std::move(columns); }
  Result<StatementDescription> Describe(size_t index,
                                        const std::vector<Type>& param_types) override {
    if (index >= statements_.size()) {
      return Status::Internal("statement index " + std::to_string(index) + " out of range");
    }
    if (core_->closed.load()) return ClosedError();
    return exec::DescribeStatement(*statements_[index], core_->catalog.get(), param_types,
                                   settings_.get());
  }

 private:
  std::shared_ptr<EngineCore> core_;
  std::shared_ptr<exec::SessionSettings> settings_;  // the session's
  SharedStatements statements_;
  std::shared_ptr<exec::PlanSlot> plans_;  // null unless a prepared statement's request
  std::optional<std::vector<ColumnInfo>> prepared_columns_;
};

// Session::TakePendingCommit's object: the session's settings (and the database) stay alive
// until the commit is finished, by the server or, failing that, by the destructor.
class PendingCommitImpl : public PendingCommit {
 public:
  PendingCommitImpl(std::shared_ptr<EngineCore> core,
                    std::shared_ptr<exec::SessionSettings> settings,
                    std::shared_ptr<exec::CommitInFlight> flight)
      : core_(std::move(core)), settings_(std::move(settings)), flight_(std::move(flight)) {}
  ~PendingCommitImpl() override {
    if (!flight_->finished() && !core_->closed.load()) (void)Finish();
  }
  void WhenDone(std::function<void()> done) override { flight_->WhenDone(std::move(done)); }
  Status Finish() override { return flight_->Finish(core_->catalog.get(), *settings_); }

 private:
  std::shared_ptr<EngineCore> core_;
  std::shared_ptr<exec::SessionSettings> settings_;
  std::shared_ptr<exec::CommitInFlight> flight_;
};

class SessionImpl : public Session {
 public:
  SessionImpl(std::shared_ptr<EngineCore> core, const SessionOptions& options)
      : core_(std::move(core)),
        settings_(std::make_shared<exec::SessionSettings>(options.user, options.database,
                                                          options.application_name)) {
    // The server's defaults (--default-isolation, --commit-mode) as the session's settings.
    (void)settings_->Set("default_transaction_isolation", {core_->options.default_isolation});
    if (!core_->options.synchronous_commit) (void)settings_->Set("synchronous_commit", {"off"});
    (void)settings_->TakeChanged();
  }
  ~SessionImpl() override {
    // A transaction still open when the session goes is rolled back.
    if (!core_->closed.load()) {
      // A deferred COMMIT nobody took (PendingCommit) is still ended before the session goes.
      if (auto flight = settings_->txn_block().TakeCommitInFlight()) {
        (void)flight->Finish(core_->catalog.get(), *settings_);
      }
      settings_->txn_block().Close(core_->catalog.get());
      core_->catalog->DropTempViews(settings_->session_id());  // TEMP views end with the session
      exec::DropSessionTempTables(core_->catalog.get(), settings_->session_id());  // and tables
    }
  }
  char TransactionStatus() const override { return settings_->txn_block().status(); }
  std::unique_ptr<PendingCommit> TakePendingCommit() override {
    std::shared_ptr<exec::CommitInFlight> flight = settings_->txn_block().TakeCommitInFlight();
    if (flight == nullptr) return nullptr;
    return std::make_unique<PendingCommitImpl>(core_, settings_, std::move(flight));
  }
  std::shared_ptr<const datetime::TimeZone> time_zone() const override {
    return settings_->time_zone();
  }
  Result<std::unique_ptr<Request>> Parse(std::string_view sql) override {
    if (core_->closed.load()) return ClosedError();
    MERIDIAN_RETURN_IF_ERROR(CheckLength(sql));
    MERIDIAN_ASSIGN_OR_RETURN(std::vector<ast::Statement> statements, parser::Parse(sql));
    return std::unique_ptr<Request>(
        std::make_unique<RequestImpl>(core_, settings_, Share(std::move(statements))));
  }
  Result<PreparedStatementInfo> Prepare(const std::string& name, std::string_view sql,
                                        const std::vector<Type>& param_types) override {
    if (core_->closed.load()) return ClosedError();
    MERIDIAN_RETURN_IF_ERROR(CheckLength(sql));
    MERIDIAN_ASSIGN_OR_RETURN(std::vector<ast::Statement> statements, parser::Parse(sql));
    if (statements.size() > 1) {
      return Status::Error(sqlstate::kSyntaxError,
                           "cannot insert multiple commands into a prepared statement");
    }
    std::shared_ptr<const ast::Statement> stmt;
    if (!statements.empty()) stmt = Share(std::move(statements))[0];
    MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<exec::PreparedStatement> entry,
                              exec::DescribePrepared(std::move(stmt), core_->catalog.get(),
                                                     param_types, settings_.get()));
    if (!name.empty()) MERIDIAN_RETURN_IF_ERROR(settings_->prepared().Add(name, entry));
    return Info(*entry);
  }
  std::optional<PreparedStatementInfo> FindPrepared(const std::string& name) override {
    std::shared_ptr<const exec::PreparedStatement> entry = settings_->prepared().Find(name);
    if (entry == nullptr) return std::nullopt;
    return Info(*entry);
  }
  void ClosePrepared(const std::string& name) override { settings_->prepared().Remove(name); }
  std::vector<std::pair<std::string, std::string>> ReportedParameters() override {
    return settings_->Reported();
  }
  std::vector<std::pair<std::string, std::string>> TakeChangedParameters() override {
    return settings_->TakeChanged();
  }
  void SetBackendPid(int32_t pid) override { settings_->set_backend_pid(pid); }

 private:
  Status CheckLength(std::string_view sql) const {
    const size_t max = core_->options.max_statement_bytes;
    if (sql.size() <= max) return Status::Ok();
    return Status::Error(sqlstate::kProgramLimitExceeded,
                         "statement is too long: " + std::to_string(sql.size()) + " bytes")
        .WithDetail("The server accepts at most " + std::to_string(max) +
                    " bytes of SQL text per request (--max-statement-bytes).")
        .WithHint("Load large data with COPY, or split the statement.");
  }
  // A stored prepared statement as the public API shows it: a one-statement request over it.
  PreparedStatementInfo Info(const exec::PreparedStatement& entry) const {
    PreparedStatementInfo info;
    if (entry.statement != nullptr) {
      auto request = std::make_shared<RequestImpl>(core_, settings_,
                                                   SharedStatements{entry.statement}, entry.plans);
      request->FixResult(entry.columns);
      info.request = std::move(request);
    }
    info.param_types = entry.param_types;
    info.columns = entry.columns;
    return info;
  }

  std::shared_ptr<EngineCore> core_;
  std::shared_ptr<exec::SessionSettings> settings_;
};

class DatabaseImpl : public Database {
 public:
  explicit DatabaseImpl(std::shared_ptr<EngineCore> core) : core_(std::move(core)) {}
  ~DatabaseImpl() override { (void)Close(); }

  std::unique_ptr<Session> NewSession(const SessionOptions& options) override {
    return std::make_unique<SessionImpl>(core_, options);
  }

  Result<std::vector<TableDescription>> DescribeTables(std::string_view table) override {
    if (core_->closed.load()) return ClosedError();
    std::vector<std::shared_ptr<catalog::Table>> tables;
    if (!table.empty()) {
      auto t = core_->catalog->Find(std::string(table));
      if (t == nullptr) {
        return Status::Error(sqlstate::kUndefinedTable,
                             "relation \"" + std::string(table) + "\" does not exist");
      }
      tables.push_back(std::move(t));
    } else {
      tables = core_->catalog->List();
      // A session's TEMP tables are its own (this call has no session).
      std::erase_if(tables, [](const auto& t) { return t->schema().temp_owner != 0; });
    }
    std::vector<TableDescription> out;
    for (const auto& t : tables) {
      const catalog::TableSchema& s = t->schema();
      TableDescription d;
      d.name = s.nsp == catalog::kPublicSchema ? s.name : s.nsp + "." + s.name;
      for (size_t i = 0; i < s.columns.size(); ++i) {
        const catalog::Column& c = s.columns[i];
        if (c.dropped) continue;
        d.columns.push_back({c.name, c.type, c.not_null, c.default_text,
                             s.IsPrimaryKeyColumn(static_cast<int>(i))});
      }
      for (int k : s.primary_key) d.primary_key.push_back(s.columns[k].name);
      for (const auto& index : t->IndexSnapshot()) {
        const catalog::IndexSchema& x = index->schema();
        IndexDescription id;
        id.name = x.name;
        for (size_t k = 0; k < x.columns.size(); ++k) {
          const int c = x.columns[k];
          id.columns.push_back(c != catalog::kExpressionKey ? s.columns[c].name
                               : x.compiled != nullptr      ? x.compiled->Display(k, false)
                                                            : x.expressions[k]);
        }
        id.descending = x.descending;
        id.unique = x.unique;
        id.primary_key = x.kind == catalog::IndexKind::kPrimaryKey;
        id.constraint = x.IsConstraint();
        d.indexes.push_back(std::move(id));
      }
      out.push_back(std::move(d));
    }
    return out;
  }

  Status Checkpoint() override {
    if (core_->closed.load()) return ClosedError();
    MERIDIAN_RETURN_IF_ERROR(core_->catalog->AutoAnalyze());
    return core_->catalog->Checkpoint();
  }

  Result<bool> CheckpointIfGarbageDue() override {
    if (core_->closed.load()) return ClosedError();
    if (!core_->catalog->GarbageDue()) return false;
    MERIDIAN_RETURN_IF_ERROR(core_->catalog->Checkpoint(/*only_due=*/true));
    return true;
  }

  Status Close() override { return core_->Close(); }
  RecoveryInfo recovery() const override { return core_->catalog->recovery(); }

 private:
  std::shared_ptr<EngineCore> core_;
};

}  // namespace

Result<std::unique_ptr<Database>> Database::Open(const DatabaseOptions& options) {
  exec::RegisterBuiltinFunctions();  // the registered scalar functions, once per process
  // Expression and partial indexes are bound by the query layers (catalog/index.h).
  catalog::SetIndexExprCompiler(&exec::CompileIndexExpressions);
  std::error_code ec;
  std::filesystem::create_directories(options.data_dir, ec);
  if (ec) {
    return Status::IOError("could not create data directory \"" + options.data_dir +
                           "\": " + ec.message());
  }
  auto core = std::make_shared<EngineCore>();
  core->options = options;
  MERIDIAN_ASSIGN_OR_RETURN(core->lock, database::DataDirLock::Acquire(options.data_dir));
  size_t pages = options.buffer_pool_mb * 1024 * 1024 / storage::kPageSize;
  core->pool = std::make_unique<storage::BufferPool>(
      std::max(pages, kMinPoolPages),
      options.file_system != nullptr ? options.file_system : storage::FileSystem::Default());
  txn::CommitLogOptions log_options;
  log_options.group_window_us = options.group_window_us;
  log_options.async_window_ms = std::max<int64_t>(1, options.async_window_ms);
  auto catalog = catalog::Catalog::Open(options.data_dir, core->pool.get(), log_options);
  if (!catalog.ok()) return catalog.status();
  core->catalog = std::move(catalog).value();
  return std::unique_ptr<Database>(std::make_unique<DatabaseImpl>(std::move(core)));
}

}  // namespace meridian
