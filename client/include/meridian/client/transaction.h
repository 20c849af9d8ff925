// Transaction: a transaction block on a Connection, ended by Commit or Rollback, rolled back by
// the destructor when neither ran (an early return or an exception between them). It sends the
// SQL statements BEGIN / COMMIT / ROLLBACK (transactions run through SQL; TxControl in the proto
// is not implemented by the server). Retry a transaction that fails with 40001 or 40P01
// (ClientError::retryable()) from its Begin.
#pragma once

#include <optional>

#include "meridian/client/client_error.h"
#include "meridian/client/connection.h"

namespace meridian::client {

enum class IsolationLevel { kDefault, kReadCommitted, kRepeatableRead, kSerializable };

struct TransactionOptions {
  IsolationLevel isolation = IsolationLevel::kDefault;  // kDefault: meridiand's --default-isolation
  bool read_only = false;
};

class Transaction {
 public:
  // Starts a transaction block on conn, which must outlive the Transaction.
  static ClientResult<Transaction> Begin(Connection& conn, const TransactionOptions& options = {});

  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  ~Transaction();  // ROLLBACK when still open; errors are dropped

  // COMMIT. A commit the server refuses (a failed transaction: PostgreSQL answers ROLLBACK)
  // returns 40001 or the server's error; the transaction is over either way.
  ClientStatus Commit();
  ClientStatus Rollback();
  bool open() const { return conn_ != nullptr; }

 private:
  explicit Transaction(Connection* conn) : conn_(conn) {}
  Connection* conn_;  // null once committed or rolled back
};

}  // namespace meridian::client
