// The compiled form of an expression or partial index (catalog::IndexExprs): each expression
// key and the predicate bound over the table's row and evaluated without a statement context.
// CompileIndexExpressions is the catalog's compiler (installed by Database::Open); the
// optimizer reads keys() and predicate() to match query expressions against the index.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "binder/bound_expr.h"
#include "catalog/index.h"
#include "catalog/schema.h"

namespace meridian::exec {

class BoundIndexExprs final : public catalog::IndexExprs {
 public:
  Result<Value> Key(size_t k, const Row& row) const override;
  Result<bool> Matches(const Row& row) const override;
  std::vector<int> Columns() const override { return columns_; }
  std::string Display(size_t k, bool pretty) const override;
  std::string PredicateDisplay(bool pretty) const override {
    return pretty ? predicate_pretty_ : predicate_plain_;
  }
  Type KeyType(size_t k) const override {
    return k < keys_.size() && keys_[k] != nullptr ? keys_[k]->type : Type();
  }
  std::string KeyName(size_t k) const override { return k < names_.size() ? names_[k] : ""; }

  // Key column k's bound expression (null for a plain column key).
  const BoundExpr* key(size_t k) const { return k < keys_.size() ? keys_[k].get() : nullptr; }
  // The predicate's conjuncts (empty for a full index).
  const std::vector<BoundExprPtr>& predicate() const { return predicate_; }

 private:
  friend Result<std::shared_ptr<const catalog::IndexExprs>> CompileIndexExpressions(
      const catalog::TableSchema& table, const catalog::IndexSchema& index);
  std::vector<BoundExprPtr> keys_;
  std::vector<std::string> plain_, pretty_;  // per key: the deparsed expression, unwrapped
  std::vector<bool> function_like_;          // per key: printed without extra parentheses
  std::vector<std::string> names_;           // per key: pg_attribute name
  std::string predicate_plain_, predicate_pretty_;
  BoundExprPtr predicate_expr_;
  std::vector<BoundExprPtr> predicate_;  // its conjuncts, for implication tests
  std::vector<int> columns_;
};

// Parses and binds index's expression texts and predicate over table.
Result<std::shared_ptr<const catalog::IndexExprs>> CompileIndexExpressions(
    const catalog::TableSchema& table, const catalog::IndexSchema& index);

// Whether e itself (not its children) is a call whose value may differ between calls with
// the same arguments: random(), clock_timestamp(), the sequence functions, a registered
// function marked volatile.
bool IsVolatileCall(const BoundExpr& e);

// Binds an index key expression (predicate false) or predicate (true) written in CREATE INDEX
// and checks that it may be one: immutable (42P17), of a B+tree key type. *text receives the
// stored SQL text (PostgreSQL's plain deparse).
Result<BoundExprPtr> BindIndexExpression(const ast::Expr& expr, const catalog::TableSchema& table,
                                         bool predicate, std::string* text);

}  // namespace meridian::exec
