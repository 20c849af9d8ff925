// WITH queries referenced in FROM: each reference binds the query's text anew (it is inlined,
// not materialised). Under WITH RECURSIVE a query whose body is `non-recursive term UNION
// [ALL] recursive term` and whose recursive term names the query itself becomes a recursive
// UNION (BoundSelect::recursive) over a working table, with PostgreSQL's rules: one
// reference, at the recursive term's own level (not in a subquery, not on the NULL-extended
// side of an outer join, not inside INTERSECT ALL / EXCEPT), no aggregates beside it
// (42P19); no ORDER BY / LIMIT / OFFSET on the whole (0A000); each column's type fixed by the
// non-recursive term (42804 when the recursive term would widen it). A data-modifying WITH
// query (INSERT / UPDATE / DELETE) is not bound here: it ran before the statement, and its
// references read its RETURNING rows (ModifyingCteReference).
#include "binder/binder.h"
#include "binder/type_rules.h"

namespace meridian::exec {

namespace {

Status RecursionError(const std::string& message, uint32_t position) {
  return Status::Error(sqlstate::kInvalidRecursion, message).WithPosition(position);
}

}  // namespace

Result<std::unique_ptr<BoundSelect>> Binder::BindCteReference(size_t index,
                                                              const ast::TableRef& ref) {
  const CteEntry entry = ctes_[index];
  const ast::CommonTableExpr& cte = *entry.cte;
  if (cte.statement != nullptr) return ModifyingCteReference(cte, ref);
  // Named inside its own body (only possible under WITH RECURSIVE).
  for (size_t i = cte_bindings_.size(); i-- > 0;) {
    if (cte_bindings_[i].cte != &cte) continue;
    if (i + 1 != cte_bindings_.size()) {
      return Status::NotSupported("mutual recursion between WITH items is not implemented")
          .WithPosition(cte.loc.position);
    }
    return RecursiveReference(&cte_bindings_[i], ref);
  }
  // Bound once per reference, seeing the WITH queries written before it (under WITH
  // RECURSIVE its whole list, itself included), outside any set operation of the referrer.
  std::vector<CteEntry> saved = ctes_;
  ctes_.resize(cte.recursive ? entry.list_end : index);
  const char* saved_context = std::exchange(recursion_context_, nullptr);
  Result<std::unique_ptr<BoundSelect>> bound =
      cte.recursive ? BindRecursiveCte(cte, ref.loc.position)
                    : BindDerived(*cte.query, cte.name, cte.columns, ref.loc.position);
  recursion_context_ = saved_context;
  ctes_ = std::move(saved);
  if (!bound.ok()) return bound;
  // FROM cte AS x (a, b): the reference's own column names.
  MERIDIAN_RETURN_IF_ERROR(RenameColumns(bound->get(), ref.alias.empty() ? cte.name : ref.alias,
                                         ref.column_aliases, ref.loc.position));
  return bound;
}

void Binder::PushWith(const std::vector<ast::CommonTableExpr>& list, size_t visible) {
  const size_t end = ctes_.size() + visible;
  for (size_t i = 0; i < visible && i < list.size(); ++i) ctes_.push_back({&list[i], end});
}

Result<std::unique_ptr<BoundSelect>> Binder::ModifyingCteReference(const ast::CommonTableExpr& cte,
                                                                   const ast::TableRef& ref) {
  const ModifyingCte* found = nullptr;
  if (modifying_ctes_ != nullptr) {
    for (const ModifyingCte& m : *modifying_ctes_) {
      if (m.cte == &cte) found = &m;
    }
  }
  if (found == nullptr) {  // read by itself (WITH RECURSIVE) or outside a statement's run
    return RecursionError(
        "recursive query \"" + cte.name + "\" must not contain data-modifying statements",
        cte.loc.position);
  }
  if (!found->returning) {
    return Status::NotSupported("WITH query \"" + cte.name + "\" does not have a RETURNING clause")
        .WithPosition(ref.loc.position);
  }
  auto out = std::make_unique<BoundSelect>();
  out->work_table_scan = true;
  out->work_table = found->slot;
  out->columns = found->columns;
  for (ColumnInfo& c : out->columns) c.nullable = true;
  out->visible = out->columns.size();
  if (cte.columns.size() > out->columns.size()) {
    return Status::Error(sqlstate::kInvalidColumnReference,
                         "WITH query \"" + cte.name + "\" has " +
                             std::to_string(out->columns.size()) + " columns available but " +
                             std::to_string(cte.columns.size()) + " columns specified")
        .WithPosition(cte.loc.position);
  }
  for (size_t i = 0; i < cte.columns.size(); ++i) out->columns[i].name = cte.columns[i];
  MERIDIAN_RETURN_IF_ERROR(RenameColumns(out.get(), ref.alias.empty() ? cte.name : ref.alias,
                                         ref.column_aliases, ref.loc.position));
  return out;
}

Result<std::unique_ptr<BoundSelect>> Binder::BindRecursiveCte(const ast::CommonTableExpr& cte,
                                                              uint32_t position) {
  cte_bindings_.push_back(CteBinding{});
  cte_bindings_.back().cte = &cte;
  struct Pop {
    std::vector<CteBinding>* bindings;
    ~Pop() { bindings->pop_back(); }
  } pop{&cte_bindings_};
  const ast::SelectStmt& q = *cte.query;
  if (q.set_op != ast::SetOp::kUnion || q.set_right == nullptr) {
    // Not of the recursive form: a reference to itself inside is 42P19 (RecursiveReference).
    return BindDerived(q, cte.name, cte.columns, position);
  }
  // The body's own WITH queries are visible to both terms.
  const size_t saved_ctes = ctes_.size();
  for (const ast::CommonTableExpr& inner : q.with) {
    ctes_.push_back({&inner, saved_ctes + q.with.size()});
  }
  struct CtesRestore {
    std::vector<CteEntry>* ctes;
    size_t size;
    ~CtesRestore() { ctes->resize(size); }
  } ctes_restore{&ctes_, saved_ctes};

  // The non-recursive term: an ordinary query (untyped outputs become text).
  const size_t level = scope_ == nullptr ? 0 : static_cast<size_t>(scope_->level + 1);
  const bool was_correlated = level < correlated_.size() && correlated_[level];
  cte_bindings_.back().phase = CteBinding::Phase::kNonRecursive;
  set_branch_ = false;
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundSelect> left, BindSelectInScope(*q.set_left));
  const bool left_correlated = level < correlated_.size() && correlated_[level];
  std::vector<ColumnInfo> columns = left->columns;
  if (cte.columns.size() > columns.size()) {
    return Status::Error(sqlstate::kInvalidColumnReference,
                         "WITH query \"" + cte.name + "\" has " + std::to_string(columns.size()) +
                             " columns available but " + std::to_string(cte.columns.size()) +
                             " columns specified")
        .WithPosition(cte.loc.position);
  }
  for (size_t i = 0; i < cte.columns.size(); ++i) columns[i].name = cte.columns[i];
  for (ColumnInfo& c : columns) c.nullable = true;

  // The recursive term, its references to the query reading the working table.
  {
    CteBinding& binding = cte_bindings_.back();
    binding.phase = CteBinding::Phase::kRecursive;
    binding.columns = columns;
    binding.table = std::make_shared<WorkTableSlot>();
    binding.sublinks = sublink_depth_;
  }
  set_branch_ = true;  // keeps untyped outputs unknown, for the column types below
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundSelect> right, BindSelectInScope(*q.set_right));
  if (left_correlated || was_correlated) correlated_[level] = true;
  CteBinding& binding = cte_bindings_.back();
  if (binding.refs == 0) {
    // An ordinary UNION after all: bound again as one.
    binding.phase = CteBinding::Phase::kPlain;
    ctes_.resize(saved_ctes);
    return BindDerived(q, cte.name, cte.columns, position);
  }
  auto not_implemented = [&](const std::string& what, uint32_t pos) {
    return Status::NotSupported(what + " in a recursive query is not implemented")
        .WithPosition(pos);
  };
  if (!q.order_by.empty()) return not_implemented("ORDER BY", q.order_by[0].expr->loc.position);
  if (q.offset != nullptr) return not_implemented("OFFSET", q.offset->loc.position);
  if (q.limit != nullptr) return not_implemented("LIMIT", q.limit->loc.position);
  if (!q.locking.empty()) return not_implemented("FOR UPDATE/SHARE", 0);

  const std::vector<ColumnInfo>& rc = right->columns;
  if (rc.size() != columns.size()) {
    return Status::Error(sqlstate::kSyntaxError,
                         "each UNION query must have the same number of columns")
        .WithPosition(q.set_right->loc.position);
  }
  auto out = std::make_unique<BoundSelect>();
  std::vector<BoundExprPtr> casts;
  bool cast = false;
  for (size_t i = 0; i < rc.size(); ++i) {
    const Type lt = left->columns[i].type;
    std::optional<Type> common = CommonType(lt, rc[i].type);
    if (common && common->id == TypeId::kUnknown) common = Type::Text();
    if (!common) {
      return Status::Error(
                 sqlstate::kDatatypeMismatch,
                 "UNION types " + lt.Name() + " and " + rc[i].type.Name() + " cannot be matched")
          .WithPosition(q.set_right->loc.position);
    }
    // Different type modifiers make the overall column unconstrained, as in PostgreSQL.
    if (common->id == lt.id && rc[i].type.id == lt.id && rc[i].type.modifier != lt.modifier) {
      common->modifier = -1;
    }
    if (!(*common == lt)) {
      return Status::Error(sqlstate::kDatatypeMismatch, "recursive query \"" + cte.name +
                                                            "\" column " + std::to_string(i + 1) +
                                                            " has type " + lt.DisplayName() +
                                                            " in non-recursive term but type " +
                                                            common->DisplayName() + " overall")
          .WithHint("Cast the output of the non-recursive term to the correct type.")
          .WithPosition(q.set_left->loc.position);
    }
    BoundExprPtr col = BoundExpr::Column(0, static_cast<int>(i), rc[i].type, rc[i].name);
    if (!(rc[i].type == lt)) {
      cast = true;
      MERIDIAN_ASSIGN_OR_RETURN(col, Coerce(std::move(col), lt, false, ""));
    }
    casts.push_back(std::move(col));
  }
  if (cast) out->right_casts = std::move(casts);
  out->set_op = ast::SetOp::kUnion;
  out->set_all = q.set_all;
  out->recursive = true;
  out->work_table = binding.table;
  out->set_left = std::move(left);
  out->set_right = std::move(right);
  out->columns = std::move(columns);
  out->visible = out->columns.size();
  return out;
}

Result<std::unique_ptr<BoundSelect>> Binder::RecursiveReference(CteBinding* binding,
                                                                const ast::TableRef& ref) {
  const std::string& name = binding->cte->name;
  const uint32_t pos = ref.loc.position;
  const std::string reference = "recursive reference to query \"" + name + "\" must not appear ";
  switch (binding->phase) {
    case CteBinding::Phase::kPlain:
      return RecursionError("recursive query \"" + name +
                                "\" does not have the form non-recursive-term UNION [ALL] "
                                "recursive-term",
                            binding->cte->loc.position);
    case CteBinding::Phase::kNonRecursive:
      return RecursionError(reference + "within its non-recursive term", pos);
    case CteBinding::Phase::kRecursive:
      break;
  }
  if (sublink_depth_ != binding->sublinks)
    return RecursionError(reference + "within a subquery", pos);
  if (recursion_context_ != nullptr) {
    return RecursionError(reference + "within " + recursion_context_, pos);
  }
  if (binding->refs > 0) return RecursionError(reference + "more than once", pos);
  ++binding->refs;
  auto out = std::make_unique<BoundSelect>();
  out->work_table_scan = true;
  out->work_table = binding->table;
  out->columns = binding->columns;
  out->visible = out->columns.size();
  MERIDIAN_RETURN_IF_ERROR(
      RenameColumns(out.get(), ref.alias.empty() ? name : ref.alias, ref.column_aliases, pos));
  return out;
}

Status Binder::CheckRecursiveReferenceUse(const std::vector<ast::TableRef>& from,
                                          const Scope& scope, const BoundSelect& out) const {
  for (size_t i = 0; i < out.derived.size() && i < from.size(); ++i) {
    const BoundSelect* d = out.derived[i].get();
    if (d == nullptr || !d->work_table_scan || d->work_table->cte) continue;
    if (i < scope.tables.size() && scope.tables[i].nullable) {
      return RecursionError("recursive reference to query \"" + from[i].name +
                                "\" must not appear within an outer join",
                            from[i].loc.position);
    }
    if (!out.aggregates.empty()) {
      return RecursionError(
          "aggregate functions are not allowed in a recursive query's recursive term",
          out.aggregates[0]->position);
    }
  }
  return Status::Ok();
}

}  // namespace meridian::exec
