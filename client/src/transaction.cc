// Transaction blocks over SQL BEGIN / COMMIT / ROLLBACK; see transaction.h.
#include "meridian/client/transaction.h"

namespace meridian::client {

ClientResult<Transaction> Transaction::Begin(Connection& conn, const TransactionOptions& options) {
  std::string sql = "BEGIN";
  switch (options.isolation) {
    case IsolationLevel::kDefault:
      break;
    case IsolationLevel::kReadCommitted:
      sql += " ISOLATION LEVEL READ COMMITTED";
      break;
    case IsolationLevel::kRepeatableRead:
      sql += " ISOLATION LEVEL REPEATABLE READ";
      break;
    case IsolationLevel::kSerializable:
      sql += " ISOLATION LEVEL SERIALIZABLE";
      break;
  }
  if (options.read_only) sql += " READ ONLY";
  ClientResult<std::vector<StatementResult>> r = conn.Execute(sql);
  if (!r.ok()) return r.error();
  return Transaction(&conn);
}

Transaction::Transaction(Transaction&& other) noexcept : conn_(other.conn_) {
  other.conn_ = nullptr;
}

Transaction::~Transaction() {
  if (conn_ != nullptr && !conn_->connection_lost()) (void)Rollback();
}

ClientStatus Transaction::Commit() {
  if (conn_ == nullptr) {
    return MakeLocalError(kSqlStateInFailedTransaction, "the transaction is already over");
  }
  Connection* conn = conn_;
  conn_ = nullptr;
  ClientResult<std::vector<StatementResult>> r = conn->Execute("COMMIT");
  if (!r.ok()) return r.error();
  // As in PostgreSQL, COMMIT of a transaction that met an error rolls it back.
  if (!r->empty() && r->back().command_tag == "ROLLBACK") {
    return MakeLocalError(kSqlStateInFailedTransaction,
                          "the transaction was rolled back: a statement in it failed");
  }
  return ClientStatus();
}

ClientStatus Transaction::Rollback() {
  if (conn_ == nullptr) return ClientStatus();
  Connection* conn = conn_;
  conn_ = nullptr;
  ClientResult<std::vector<StatementResult>> r = conn->Execute("ROLLBACK");
  if (!r.ok()) return r.error();
  return ClientStatus();
}

}  // namespace meridian::client
