// PREPARE / EXECUTE / DEALLOCATE and the session's namespace of prepared statements (see
// prepared.h). PostgreSQL references: prepare.c (PrepareQuery, ExecuteQuery, EvaluateParams,
// DeallocateQuery) for the checks and messages.
#include "main/prepared.h"

#include <utility>

#include "catalog/schema.h"
#include "catalog/table_lock.h"
#include "binder/binder.h"
#include "execution/evaluator.h"
#include "binder/params.h"
#include "main/session_settings.h"
#include "main/statement.h"
#include "main/transaction_block.h"

namespace meridian::exec {

namespace {

// A statement that prepares another may be EXECUTE itself (a protocol-level statement), so
// EXECUTE can recurse; PostgreSQL stops such a loop with its stack depth check.
constexpr int kMaxExecuteDepth = 32;

constexpr const char* kInvalidSqlStatementName = sqlstate::kInvalidSqlStatementName;
constexpr const char* kDuplicatePreparedStatement = sqlstate::kDuplicatePreparedStatement;
constexpr const char* kStatementTooComplex = sqlstate::kStatementTooComplex;

Status DoesNotExist(const std::string& name) {
  return Status::Error(kInvalidSqlStatementName,
                       "prepared statement \"" + name + "\" does not exist");
}

// PREPARE and DEALLOCATE: done when started, no rows.
class TagCursor : public QueryCursor {
 public:
  explicit TagCursor(std::string tag) : tag_(std::move(tag)) {}
  const std::vector<ColumnInfo>& columns() const override { return columns_; }
  Result<bool> Fetch(size_t, size_t, ExecControl&, std::vector<Row>*) override { return false; }
  std::string CommandTag() const override { return tag_; }
  uint64_t RowCount() const override { return 0; }

 private:
  std::vector<ColumnInfo> columns_;
  std::string tag_;
};

std::unique_ptr<QueryCursor> Tagged(std::string tag) {
  return std::make_unique<TagCursor>(std::move(tag));
}

// An error of the executed statement: its position would point into the text that prepared
// it, not into this request, so it is dropped (the rest of the error is kept).
Status WithoutPosition(const Status& st) {
  if (st.ok() || st.position() == 0) return st;
  const ErrorInfo& e = st.error();
  Status out = Status::Error(e.sqlstate, e.message);
  if (!e.detail.empty()) out.WithDetail(e.detail);
  if (!e.hint.empty()) out.WithHint(e.hint);
  if (!e.context.empty()) out.WithContext(e.context);
  return out;
}

Status CheckArgCount(const ast::ExecuteStmt& stmt, const PreparedStatement& entry) {
  if (stmt.args.size() == entry.param_types.size()) return Status::Ok();
  return Status::Error(sqlstate::kSyntaxError,
                       "wrong number of parameters for prepared statement \"" + stmt.name + "\"")
      .WithDetail("Expected " + std::to_string(entry.param_types.size()) + " parameters but got " +
                  std::to_string(stmt.args.size()) + ".");
}

// PostgreSQL's EvaluateParams: the arguments, cast to the prepared statement's parameter types
// and evaluated once.
Result<std::vector<Value>> EvaluateArgs(const ast::ExecuteStmt& stmt,
                                        const PreparedStatement& entry, catalog::Catalog* catalog,
                                        ExecControl& ctl, SessionSettings* settings) {
  MERIDIAN_RETURN_IF_ERROR(CheckArgCount(stmt, entry));
  catalog::LockSet locks;  // no tables: an argument cannot read one
  Binder binder(catalog, &locks);
  std::vector<BoundExprPtr> bound;
  for (size_t i = 0; i < stmt.args.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(
        BoundExprPtr e,
        binder.BindExecuteArg(*stmt.args[i], entry.param_types[i], static_cast<int>(i + 1)));
    bound.push_back(std::move(e));
  }
  ExecContext exec{&ctl, {}, settings, catalog, nullptr};
  EvalContext ctx{nullptr, nullptr, &exec};
  std::vector<Value> values;
  for (const BoundExprPtr& e : bound) {
    Result<Value> v = Eval(*e, ctx);
    if (!v.ok()) return Status(v.status()).WithPositionIfUnset(e->position);
    values.push_back(std::move(v).value());
  }
  return values;
}

Result<std::unique_ptr<QueryCursor>> Prepare(const ast::PrepareStmt& stmt,
                                             catalog::Catalog* catalog, SessionSettings* settings) {
  std::vector<Type> declared;
  for (const ast::TypeSpec& spec : stmt.param_types) {
    MERIDIAN_ASSIGN_OR_RETURN(Type t, catalog::TypeFromSpec(spec));
    declared.push_back(t);
  }
  MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<PreparedStatement> entry,
                            DescribePrepared(stmt.statement, catalog, declared, settings));
  entry->from_sql = true;
  MERIDIAN_RETURN_IF_ERROR(settings->prepared().Add(stmt.name, std::move(entry)));
  return Tagged("PREPARE");
}

Result<std::unique_ptr<QueryCursor>> Execute(const ast::ExecuteStmt& stmt,
                                             catalog::Catalog* catalog, ExecControl& ctl,
                                             SessionSettings* settings) {
  PreparedStatements& prepared = settings->prepared();
  std::shared_ptr<const PreparedStatement> entry = prepared.Find(stmt.name);
  if (entry == nullptr) return DoesNotExist(stmt.name);
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> values,
                            EvaluateArgs(stmt, *entry, catalog, ctl, settings));
  if (entry->statement == nullptr) return Tagged("EXECUTE");  // the protocol's empty statement
  int& depth = prepared.execute_depth();
  if (depth >= kMaxExecuteDepth) {
    return Status::Error(kStatementTooComplex, "stack depth limit exceeded")
        .WithDetail("EXECUTE nested more than " + std::to_string(kMaxExecuteDepth) + " levels");
  }
  struct DepthGuard {
    int& depth;
    explicit DepthGuard(int& d) : depth(d) { ++depth; }
    ~DepthGuard() { --depth; }
  } guard(depth);
  StatementParams inner{std::move(values), entry->param_types};
  // The statement gets the usual transaction handling (autocommit or the open block).
  Result<std::unique_ptr<QueryCursor>> cursor = CheckCachedResult(
      entry->columns,
      StartStatement(*entry->statement, catalog, ctl, inner, settings, entry->plans), settings);
  if (!cursor.ok()) return WithoutPosition(cursor.status());
  return cursor;
}

Result<std::unique_ptr<QueryCursor>> Deallocate(const ast::DeallocateStmt& stmt,
                                                SessionSettings* settings) {
  if (stmt.all) {
    settings->prepared().Clear();
    return Tagged("DEALLOCATE ALL");
  }
  if (!settings->prepared().Remove(stmt.name)) return DoesNotExist(stmt.name);
  return Tagged("DEALLOCATE");
}

}  // namespace

Status PreparedStatements::Add(const std::string& name,
                               std::shared_ptr<const PreparedStatement> stmt) {
  auto [it, inserted] = by_name_.try_emplace(name, std::move(stmt));
  if (!inserted) {
    return Status::Error(kDuplicatePreparedStatement,
                         "prepared statement \"" + name + "\" already exists");
  }
  return Status::Ok();
}

std::shared_ptr<const PreparedStatement> PreparedStatements::Find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

bool PreparedStatements::Remove(const std::string& name) { return by_name_.erase(name) > 0; }

Result<std::shared_ptr<PreparedStatement>> DescribePrepared(
    std::shared_ptr<const ast::Statement> stmt, catalog::Catalog* catalog,
    const std::vector<Type>& declared, SessionSettings* settings) {
  auto out = std::make_shared<PreparedStatement>();
  if (stmt == nullptr) {
    out->param_types = declared;
    return out;
  }
  MERIDIAN_ASSIGN_OR_RETURN(StatementDescription described,
                            DescribeStatement(*stmt, catalog, declared, settings));
  out->param_types = std::move(described.param_types);
  out->columns = std::move(described.columns);
  out->statement = std::move(stmt);
  return out;
}

Result<std::unique_ptr<QueryCursor>> StartPreparedCommand(const ast::Statement& stmt,
                                                          catalog::Catalog* catalog,
                                                          ExecControl& ctl,
                                                          SessionSettings* settings) {
  TransactionBlock& block = settings->txn_block();
  // In a failed block only ROLLBACK is accepted (25P02), as for every other statement.
  if (block.failed()) return block.Enter(catalog, *settings).status();
  Result<std::unique_ptr<QueryCursor>> cursor =
      Status::Internal("not a prepared-statement command");
  switch (stmt.kind) {
    case ast::StatementKind::kPrepare:
      cursor = Prepare(*stmt.prepare, catalog, settings);
      break;
    case ast::StatementKind::kExecute:
      cursor = Execute(*stmt.execute, catalog, ctl, settings);
      break;
    case ast::StatementKind::kDeallocate:
      cursor = Deallocate(*stmt.deallocate, settings);
      break;
    default:
      break;
  }
  // An error inside a transaction block fails it (the executed statement's own errors have
  // done so already).
  if (!cursor.ok()) block.Fail();
  return cursor;
}

Result<std::unique_ptr<QueryCursor>> CheckCachedResult(const std::vector<ColumnInfo>& prepared,
                                                       Result<std::unique_ptr<QueryCursor>> cursor,
                                                       SessionSettings* settings) {
  if (!cursor.ok()) return cursor;
  const std::vector<ColumnInfo>& now = (*cursor)->columns();
  bool same = now.size() == prepared.size();
  for (size_t i = 0; same && i < now.size(); ++i) {
    same = now[i].name == prepared[i].name && now[i].type == prepared[i].type;
  }
  if (same) return cursor;
  cursor = Status::NotSupported("cached plan must not change result type");
  if (settings != nullptr) settings->txn_block().Fail();
  return cursor;
}

Result<StatementDescription> DescribeExecute(const ast::ExecuteStmt& stmt,
                                             const std::vector<Type>& param_types,
                                             SessionSettings* settings) {
  std::shared_ptr<const PreparedStatement> entry =
      settings == nullptr ? nullptr : settings->prepared().Find(stmt.name);
  if (entry == nullptr) return DoesNotExist(stmt.name);
  StatementDescription out;
  out.param_types = ParamTypes(param_types, ParamTypes::kNoLimit).Finish();
  out.columns = entry->columns;
  return out;
}

}  // namespace meridian::exec
