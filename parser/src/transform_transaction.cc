// Transaction control: BEGIN / START TRANSACTION, COMMIT / END, ROLLBACK / ABORT, SAVEPOINT,
// RELEASE [SAVEPOINT], ROLLBACK TO [SAVEPOINT], SET TRANSACTION and SET SESSION CHARACTERISTICS
// AS TRANSACTION, with PostgreSQL's transaction modes. A mode given twice with different values
// is 42601 "conflicting or redundant options"; AND CHAIN is 0A000 (not supported).

#include "transformer.h"

namespace meridian::parser {
namespace {

using Action = ast::TransactionStmt::Action;

// The written isolation level in PostgreSQL's lower-case spelling.
std::string IsolationName(P::IsolationLevelContext* ctx) {
  if (ctx->K_SERIALIZABLE() != nullptr) return "serializable";
  if (ctx->K_REPEATABLE() != nullptr) return "repeatable read";
  if (ctx->K_COMMITTED() != nullptr) return "read committed";
  return "read uncommitted";
}

}  // namespace

std::unique_ptr<ast::TransactionStmt> Transformer::TransformTransaction(
    P::TransactionStmtContext* ctx) {
  auto out = std::make_unique<ast::TransactionStmt>();
  P::TransactionModeListContext* modes = nullptr;
  P::TransactionChainContext* chain = nullptr;
  P::IdentifierContext* name = nullptr;
  if (auto* s = dynamic_cast<P::TxBeginContext*>(ctx)) {
    out->action = Action::kBegin;
    out->start_transaction = s->K_START() != nullptr;
    modes = s->transactionModeList();
  } else if (auto* s = dynamic_cast<P::TxCommitContext*>(ctx)) {
    out->action = Action::kCommit;
    chain = s->transactionChain();
  } else if (auto* s = dynamic_cast<P::TxRollbackContext*>(ctx)) {
    out->action = Action::kRollback;
    chain = s->transactionChain();
  } else if (auto* s = dynamic_cast<P::TxSavepointContext*>(ctx)) {
    out->action = Action::kSavepoint;
    name = s->identifier();
  } else if (auto* s = dynamic_cast<P::TxReleaseContext*>(ctx)) {
    out->action = Action::kRelease;
    name = s->identifier();
  } else if (auto* s = dynamic_cast<P::TxRollbackToContext*>(ctx)) {
    out->action = Action::kRollbackTo;
    name = s->identifier();
  } else if (auto* s = dynamic_cast<P::TxSetTransactionContext*>(ctx)) {
    out->action = Action::kSetTransaction;
    modes = s->transactionModeList();
  } else if (auto* s = dynamic_cast<P::TxSetSessionDefaultsContext*>(ctx)) {
    out->action = Action::kSetSessionDefaults;
    modes = s->transactionModeList();
  }
  if (name != nullptr) {
    out->savepoint = Identifier(name);
    out->savepoint_loc = Loc(name);
  }
  if (chain != nullptr && chain->K_NO() == nullptr) {
    const char* what = out->action == Action::kCommit ? "COMMIT AND CHAIN" : "ROLLBACK AND CHAIN";
    Fail(ErrorAt(chain, sqlstate::kFeatureNotSupported, std::string(what) + " is not supported"));
  }
  if (modes != nullptr) TransformTransactionModes(modes, out.get());
  return out;
}

void Transformer::TransformTransactionModes(P::TransactionModeListContext* ctx,
                                            ast::TransactionStmt* out) {
  // The same mode twice is accepted when the values agree (PostgreSQL applies each in turn).
  const auto conflict = [&](P::TransactionModeContext* mode) {
    Fail(ErrorAt(mode, sqlstate::kSyntaxError, "conflicting or redundant options"));
  };
  for (P::TransactionModeContext* mode : ctx->transactionMode()) {
    if (auto* iso = dynamic_cast<P::IsolationModeContext*>(mode)) {
      std::string level = IsolationName(iso->isolationLevel());
      if (!out->isolation.empty() && out->isolation != level) conflict(mode);
      out->isolation = std::move(level);
    } else if (auto* access = dynamic_cast<P::AccessModeContext*>(mode)) {
      const bool read_only = access->K_ONLY() != nullptr;
      if (out->read_only.has_value() && *out->read_only != read_only) conflict(mode);
      out->read_only = read_only;
    } else {
      const bool deferrable = static_cast<P::DeferrableModeContext*>(mode)->K_NOT() == nullptr;
      if (out->deferrable.has_value() && *out->deferrable != deferrable) conflict(mode);
      out->deferrable = deferrable;
    }
  }
}

}  // namespace meridian::parser
