// Binding of SELECT: FROM (comma joins), WHERE, the select list (with * expansion and
// PostgreSQL's output names), GROUP BY / HAVING, ORDER BY (by position, output name or
// expression; hidden sort columns), DISTINCT and LIMIT/OFFSET.
#include <algorithm>
#include <charconv>
#include <utility>

#include "binder/binder.h"
#include "binder/type_rules.h"

namespace meridian::exec {

namespace {

bool IsIntegerLiteral(const ast::Expr& e, int64_t* v);

// FROM item `AS name (a, b, ...)` with more names than columns.
Status TooManyAliases(const std::string& name, size_t available, size_t specified,
                      uint32_t position) {
  return Status::Error(sqlstate::kInvalidColumnReference,
                       "table \"" + name + "\" has " + std::to_string(available) +
                           " columns available but " + std::to_string(specified) +
                           " columns specified")
      .WithPosition(position);
}

// ORDER BY n: the 0-based output column, -1 when x is not an integer literal, 42P10 when n is
// out of range.
Result<int> OrderByPosition(const ast::Expr& x, size_t visible) {
  int64_t n = 0;
  if (!IsIntegerLiteral(x, &n)) return -1;
  if (n < 1 || n > static_cast<int64_t>(visible)) {
    return Status::Error(sqlstate::kInvalidColumnReference,
                         "ORDER BY position " + std::to_string(n) + " is not in select list")
        .WithPosition(x.loc.position);
  }
  return static_cast<int>(n - 1);
}

bool IsIntegerLiteral(const ast::Expr& e, int64_t* v) {
  if (e.kind != ast::ExprKind::kLiteral || e.literal_kind != ast::LiteralKind::kInteger) {
    return false;
  }
  auto r = std::from_chars(e.text.data(), e.text.data() + e.text.size(), *v);
  return r.ec == std::errc();
}

// The conjuncts of where (split at AND) that are [NOT] EXISTS (subquery) or x [NOT] IN
// (subquery), into *out.
void MarkWhereSubqueryConjuncts(const ast::Expr& where, std::vector<const ast::Expr*>* out) {
  if (where.kind == ast::ExprKind::kBinary && where.binary_op == ast::BinaryOp::kAnd) {
    for (const ast::ExprPtr& c : where.children) MarkWhereSubqueryConjuncts(*c, out);
    return;
  }
  if (where.kind == ast::ExprKind::kExists ||
      (where.kind == ast::ExprKind::kInSubquery && where.binary_op == ast::BinaryOp::kEq &&
       !where.all)) {
    out->push_back(&where);
  }
}

}  // namespace

Result<std::unique_ptr<BoundSelect>> Binder::BindSelect(const ast::SelectStmt& stmt) {
  return BindSelectInScope(stmt);
}

Result<std::unique_ptr<BoundSelect>> Binder::BindSetOperation(const ast::SelectStmt& stmt) {
  const char* name = stmt.set_op == ast::SetOp::kIntersect ? "INTERSECT"
                     : stmt.set_op == ast::SetOp::kExcept  ? "EXCEPT"
                                                           : "UNION";
  const bool is_branch = std::exchange(set_branch_, false);
  auto out = std::make_unique<BoundSelect>();
  out->set_op = stmt.set_op;
  out->set_all = stmt.set_all;
  // Both inputs bind at the same level; either one referencing an outer query makes the whole
  // operation correlated, so keep the left input's flag across binding the right one.
  const size_t level = scope_ == nullptr ? 0 : static_cast<size_t>(scope_->level + 1);
  // Where PostgreSQL refuses a recursive reference: both inputs of INTERSECT ALL and
  // EXCEPT ALL, the right one of EXCEPT.
  const char* const saved_context = recursion_context_;
  struct ContextRestore {
    Binder* binder;
    const char* saved;
    ~ContextRestore() { binder->recursion_context_ = saved; }
  } context_restore{this, saved_context};
  if (stmt.set_all &&
      (stmt.set_op == ast::SetOp::kIntersect || stmt.set_op == ast::SetOp::kExcept)) {
    recursion_context_ = name;
  }
  set_branch_ = stmt.set_right != nullptr || is_branch;
  MERIDIAN_ASSIGN_OR_RETURN(out->set_left, BindSelectInScope(*stmt.set_left));
  const bool left_correlated = level < correlated_.size() && correlated_[level];
  out->columns = out->set_left->columns;
  if (stmt.set_right != nullptr) {
    set_branch_ = true;
    if (stmt.set_op == ast::SetOp::kExcept) recursion_context_ = name;
    MERIDIAN_ASSIGN_OR_RETURN(out->set_right, BindSelectInScope(*stmt.set_right));
    if (left_correlated && level < correlated_.size()) correlated_[level] = true;
    const auto& lc = out->set_left->columns;
    const auto& rc = out->set_right->columns;
    if (lc.size() != rc.size()) {
      return Status::Error(sqlstate::kSyntaxError, std::string("each ") + name +
                                                       " query must have the same number of "
                                                       "columns")
          .WithPosition(stmt.set_right->loc.position);
    }
    // Both inputs are cast to the common type of each column, as PostgreSQL resolves UNION.
    bool cast_left = false, cast_right = false;
    std::vector<BoundExprPtr> lcasts, rcasts;
    for (size_t i = 0; i < lc.size(); ++i) {
      std::optional<Type> common = CommonType(lc[i].type, rc[i].type);
      // Untyped on both sides: text, even inside another set operation (as PostgreSQL).
      if (common && common->id == TypeId::kUnknown) common = Type::Text();
      if (!common) {
        return Status::Error(sqlstate::kDatatypeMismatch,
                             std::string(name) + " types " + lc[i].type.Name() + " and " +
                                 rc[i].type.Name() + " cannot be matched")
            .WithPosition(stmt.set_right->loc.position);
      }
      auto make = [&](const ColumnInfo& c, bool* changed) -> Result<BoundExprPtr> {
        BoundExprPtr col = BoundExpr::Column(0, static_cast<int>(i), c.type, c.name);
        if (c.type == *common) return col;
        *changed = true;
        return Coerce(std::move(col), *common, false, "");
      };
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr l, make(lc[i], &cast_left));
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr r, make(rc[i], &cast_right));
      if (!stmt.set_all && NoEqualityType(*common)) return NoEquality(*common, 0);
      lcasts.push_back(std::move(l));
      rcasts.push_back(std::move(r));
      out->columns[i].type = *common;
      out->columns[i].nullable = lc[i].nullable || rc[i].nullable;
    }
    if (cast_left) out->left_casts = std::move(lcasts);
    if (cast_right) out->right_casts = std::move(rcasts);
  }
  out->visible = out->columns.size();
  for (const ast::OrderItem& o : stmt.order_by) {
    const ast::Expr& x = *o.expr;
    MERIDIAN_ASSIGN_OR_RETURN(int column, OrderByPosition(x, out->visible));
    if (column < 0 && x.kind == ast::ExprKind::kColumnRef && x.table.empty()) {
      for (size_t i = 0; i < out->columns.size() && column < 0; ++i) {
        if (out->columns[i].name == x.name) column = static_cast<int>(i);
      }
    }
    if (column < 0) {
      return Status::Error(sqlstate::kFeatureNotSupported,
                           std::string("invalid ") + name + " ORDER BY clause")
          .WithPosition(x.loc.position)
          .WithDetail("Only result column names can be used, not expressions or functions.");
    }
    const bool nulls_first = o.nulls_first.value_or(o.descending);
    out->order_by.push_back({column, o.descending, nulls_first});
  }
  if (stmt.limit != nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(out->limit, BindLimit(*stmt.limit, "LIMIT"));
  }
  if (stmt.offset != nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(out->offset, BindLimit(*stmt.offset, "OFFSET"));
  }
  return out;
}

Status Binder::BindLocking(const ast::SelectStmt& stmt, BoundSelect* out) {
  const ast::LockingClause& first = stmt.locking.front();
  const std::string what = ast::LockingStrengthName(first.strength);
  auto not_allowed = [&](const std::string& with) {
    return Status::Error(sqlstate::kFeatureNotSupported, what + " is not allowed with " + with)
        .WithPosition(first.loc.position);
  };
  if (!out->group_by.empty()) return not_allowed("GROUP BY clause");
  if (out->having != nullptr) return not_allowed("HAVING clause");
  if (out->aggregated) return not_allowed("aggregate functions");
  if (out->distinct || !out->distinct_on.empty()) return not_allowed("DISTINCT clause");
  if (!out->windows.empty()) return not_allowed("window functions");
  out->lock_rows.assign(out->from.size(), false);
  for (const ast::LockingClause& lc : stmt.locking) {
    out->lock_nowait = out->lock_nowait || lc.nowait;
    out->lock_skip_locked = out->lock_skip_locked || lc.skip_locked;
    if (lc.of_tables.empty()) {
      for (size_t i = 0; i < out->from.size(); ++i) {
        if (out->from[i] != nullptr && out->from[i]->system_rows() == nullptr) {
          out->lock_rows[i] = true;
        }
      }
      continue;
    }
    for (size_t k = 0; k < lc.of_tables.size(); ++k) {
      const std::string& name = lc.of_tables[k];
      const uint32_t pos = k < lc.of_table_locs.size() ? lc.of_table_locs[k].position : 0;
      auto it = std::find(out->from_names.begin(), out->from_names.end(), name);
      if (it == out->from_names.end()) {
        return Status::Error(sqlstate::kUndefinedTable, "relation \"" + name + "\" in " + what +
                                                            " clause not found in FROM clause")
            .WithPosition(pos);
      }
      const size_t i = static_cast<size_t>(it - out->from_names.begin());
      if (out->from[i] == nullptr) {
        return Status::NotSupported(what + " of a subquery in FROM is not supported")
            .WithPosition(pos);
      }
      if (out->from[i]->system_rows() == nullptr) out->lock_rows[i] = true;
    }
  }
  return Status::Ok();
}

Result<std::unique_ptr<BoundSelect>> Binder::BindSelectInScope(const ast::SelectStmt& stmt) {
  // The WITH queries are visible to this query (and its subqueries) only.
  const size_t saved = ctes_.size();
  for (const ast::CommonTableExpr& cte : stmt.with) {
    ctes_.push_back({&cte, saved + stmt.with.size()});
  }
  auto bound = stmt.set_op != ast::SetOp::kNone ? BindSetOperation(stmt) : BindSelectCore(stmt);
  ctes_.resize(saved);
  return bound;
}

Status Binder::BindFromList(const std::vector<ast::TableRef>& from, Scope* scope, BoundSelect* out,
                            int* offset) {
  for (const ast::TableRef& ref : from) {
    std::string name = ref.alias.empty() ? ref.name : ref.alias;
    std::shared_ptr<catalog::Table> table;
    std::unique_ptr<BoundSelect> derived;
    const int cte = ref.schema.empty() && ref.subquery == nullptr && ref.function == nullptr
                        ? FindCte(ref.name)
                        : -1;
    bool lateral = false;
    if (ref.lateral && !scope->tables.empty()) {
      MERIDIAN_ASSIGN_OR_RETURN(derived, BindLateral(ref, name, scope, &lateral));
      if (lateral && (ref.join == ast::JoinType::kRight || ref.join == ast::JoinType::kFull)) {
        return Status::Error(sqlstate::kInvalidColumnReference,
                             "invalid reference to FROM-clause entry for table \"" +
                                 scope->tables.back().name + "\"")
            .WithPosition(ref.loc.position)
            .WithDetail("The combining JOIN type must be INNER or LEFT for a LATERAL reference.");
      }
    } else if (ref.function != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(derived, BindFunctionSource(ref, name));
    } else if (ref.subquery != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(
          derived, BindDerived(*ref.subquery, name, ref.column_aliases, ref.loc.position));
    } else if (cte >= 0) {
      MERIDIAN_ASSIGN_OR_RETURN(derived, BindCteReference(static_cast<size_t>(cte), ref));
    } else if (std::shared_ptr<const catalog::ViewSchema> view = FindView(ref)) {
      MERIDIAN_ASSIGN_OR_RETURN(derived, BindView(*view, ref.loc.position));
      MERIDIAN_RETURN_IF_ERROR(
          RenameColumns(derived.get(), name, ref.column_aliases, ref.loc.position));
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(
          table, LookupTable(ref.schema, ref.name, ref.loc, catalog::LockMode::kShared));
    }
    for (const ScopeTable& st : scope->tables) {
      if (st.name == name) {
        return Status::Error(sqlstate::kDuplicateAlias,
                             "table name \"" + name + "\" specified more than once")
            .WithPosition(ref.loc.position);
      }
    }
    ScopeTable st = derived != nullptr
                        ? ScopeTable{name, nullptr, *offset, {}, false, derived->columns, {}, {}}
                        : TableScope(name, table, *offset);
    if (derived != nullptr) st.shapes = OutputShapes(*derived);
    if (table != nullptr && !ref.column_aliases.empty()) {
      // t AS x (a, b): renames the table's first (live) columns.
      size_t k = 0;
      for (ColumnInfo& c : st.columns) {
        if (!c.name.empty() && k < ref.column_aliases.size()) c.name = ref.column_aliases[k++];
      }
      if (k < ref.column_aliases.size()) {
        return TooManyAliases(name, k, ref.column_aliases.size(), ref.loc.position);
      }
    }
    *offset += static_cast<int>(st.columns.size());
    scope->tables.push_back(std::move(st));
    out->from.push_back(std::move(table));
    out->derived.push_back(std::move(derived));
    out->from_names.push_back(name);
    if (lateral) {
      out->lateral.resize(out->from.size(), false);
      out->lateral.back() = true;
    }
    out->join_types.push_back(ref.join);
    // Outer joins make one side NULL-extended (reported as nullable output columns).
    if (ref.join == ast::JoinType::kLeft || ref.join == ast::JoinType::kFull) {
      scope->tables.back().nullable = true;
    }
    if (ref.join == ast::JoinType::kRight || ref.join == ast::JoinType::kFull) {
      for (size_t t = 0; t + 1 < scope->tables.size(); ++t) scope->tables[t].nullable = true;
    }
  }
  return Status::Ok();
}

Result<std::unique_ptr<BoundSelect>> Binder::BindSelectCore(const ast::SelectStmt& stmt) {
  const bool keep_unknown = std::exchange(set_branch_, false);
  Scope scope;
  scope.parent = scope_;
  scope.level = scope_ == nullptr ? 0 : scope_->level + 1;
  if (correlated_.size() <= static_cast<size_t>(scope.level)) {
    correlated_.resize(scope.level + 1, false);
  }
  correlated_[scope.level] = false;
  auto out = std::make_unique<BoundSelect>();
  int offset = 0;
  MERIDIAN_RETURN_IF_ERROR(BindFromList(stmt.from, &scope, out.get(), &offset));

  ScopeSwitch enter(this, &scope);
  // This core's WINDOW clause, until it is bound (a subquery has its own).
  struct WindowsRestore {
    Binder* binder;
    const std::vector<ast::WindowSpec>* saved;
    ~WindowsRestore() { binder->windows_ = saved; }
  } windows_restore{this, std::exchange(windows_, &stmt.windows)};
  MERIDIAN_RETURN_IF_ERROR(CheckWindowDefinitions(stmt.windows));
  for (size_t i = 0; i < stmt.from.size(); ++i) {
    rules_ = ExprRules{"JOIN/ON", false, true, true};
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr on, BindJoinCondition(stmt.from[i], i));
    out->join_on.push_back(std::move(on));
  }

  if (stmt.where != nullptr) {
    rules_ = ExprRules{"WHERE", false, true, true};
    // Its [NOT] EXISTS and x [NOT] IN conjuncts become logical Apply nodes; their hashed form is
    // the planner's decorrelation rule's to decide (planner/logical_rewrite.cc).
    std::vector<const ast::Expr*> marked;
    MarkWhereSubqueryConjuncts(*stmt.where, &marked);
    for (const ast::Expr* e : marked) where_subquery_conjuncts_.insert(e);
    auto where = BindBoolean(*stmt.where, "WHERE");
    for (const ast::Expr* e : marked) where_subquery_conjuncts_.erase(e);
    MERIDIAN_ASSIGN_OR_RETURN(out->where, std::move(where));
  }

  std::vector<const ast::Expr*> item_asts;
  rules_ = ExprRules{"SELECT", true, true, true, true, true};
  MERIDIAN_RETURN_IF_ERROR(BindSelectList(stmt.items, keep_unknown, out.get(), &item_asts));

  rules_ = ExprRules{"GROUP BY", false, true, true};
  MERIDIAN_RETURN_IF_ERROR(BindGroupBy(stmt, item_asts, out.get()));

  if (stmt.having != nullptr) {
    rules_ = ExprRules{"HAVING", true, true, true};
    MERIDIAN_ASSIGN_OR_RETURN(out->having, BindBoolean(*stmt.having, "HAVING"));
  }

  rules_ = ExprRules{"ORDER BY", true, true, true, true};
  MERIDIAN_RETURN_IF_ERROR(BindOrderBy(stmt, item_asts, out.get()));
  if (!stmt.distinct_on.empty()) MERIDIAN_RETURN_IF_ERROR(BindDistinctOn(stmt, out.get()));

  out->aggregated = !out->group_by.empty() || out->having != nullptr;
  for (const BoundExprPtr& p : out->projections) {
    if (p->ContainsAggregate()) out->aggregated = true;
  }
  if (out->aggregated) {
    AddDependentGroupKeys(out.get());
    for (BoundExprPtr& p : out->projections) {
      MERIDIAN_RETURN_IF_ERROR(RewriteForAggregate(&p, out.get()));
    }
    if (out->having != nullptr) {
      MERIDIAN_RETURN_IF_ERROR(RewriteForAggregate(&out->having, out.get()));
    }
  }
  MERIDIAN_RETURN_IF_ERROR(CheckRecursiveReferenceUse(stmt.from, scope, *out));
  // Window calls read the aggregate row (or the joined row) and add a column each.
  out->window_input =
      out->aggregated ? static_cast<int>(out->group_by.size() + out->aggregates.size()) : offset;
  for (BoundExprPtr& p : out->projections) ExtractWindows(&p, out.get());
  // Set-returning calls read the window row (or the row windows would read) and add a
  // column each.
  out->set_input = out->window_input + static_cast<int>(out->windows.size());
  for (BoundExprPtr& p : out->projections) {
    MERIDIAN_RETURN_IF_ERROR(ExtractSetFunctions(&p, out.get(), nullptr));
  }

  out->distinct = stmt.distinct;
  for (size_t i = 0; out->distinct && i < out->visible; ++i) {
    if (NoEqualityType(out->projections[i]->type)) return NoEquality(out->projections[i]->type, 0);
  }
  if (out->distinct && out->projections.size() > out->visible) {
    return Status::Error(sqlstate::kInvalidColumnReference,
                         "for SELECT DISTINCT, ORDER BY expressions must appear in select list")
        .WithPosition(stmt.order_by.empty() ? 0 : stmt.order_by[0].expr->loc.position);
  }

  if (stmt.limit != nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(out->limit, BindLimit(*stmt.limit, "LIMIT", /*outer_columns=*/true));
  }
  if (stmt.offset != nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(out->offset,
                              BindLimit(*stmt.offset, "OFFSET", /*outer_columns=*/true));
  }
  if (!stmt.locking.empty()) MERIDIAN_RETURN_IF_ERROR(BindLocking(stmt, out.get()));
  return out;
}

// GROUP BY: each expression (a position names a select-list item, a bare name an output column
// that is no input column), then the grouping sets when there are any.
Status Binder::BindGroupBy(const ast::SelectStmt& stmt,
                           const std::vector<const ast::Expr*>& item_asts, BoundSelect* out) {
  std::vector<BoundExprPtr> bound_keys;
  for (const ast::ExprPtr& g : stmt.group_by) {
    const ast::Expr* target = g.get();
    int64_t n = 0;
    if (IsIntegerLiteral(*g, &n)) {
      if (n < 1 || n > static_cast<int64_t>(item_asts.size()) || item_asts[n - 1] == nullptr) {
        return Status::Error(sqlstate::kInvalidColumnReference,
                             "GROUP BY position " + std::to_string(n) + " is not in select list")
            .WithPosition(g->loc.position);
      }
      target = item_asts[n - 1];
    }
    auto bound = BindExpr(*target);
    if (!bound.ok() && g->kind == ast::ExprKind::kColumnRef && g->table.empty() &&
        bound.status().sqlstate() == sqlstate::kUndefinedColumn) {
      // GROUP BY may name an output column (alias) that is not an input column.
      for (size_t i = 0; i < item_asts.size(); ++i) {
        if (item_asts[i] != nullptr && out->columns[i].name == g->name) {
          bound = BindExpr(*item_asts[i]);
          break;
        }
      }
    }
    if (!bound.ok()) return bound.status();
    if (NoEqualityType(bound.value()->type))
      return NoEquality(bound.value()->type, g->loc.position);
    bound_keys.push_back(std::move(bound).value());
  }
  if (stmt.grouping.empty()) {
    out->group_by = std::move(bound_keys);
    return Status::Ok();
  }
  return ExpandGroupingSets(stmt, std::move(bound_keys), out);
}

namespace {

// True when e reads a column of the joined row at or beyond limit (a table later in FROM).
bool ReadsBeyond(const BoundExpr& e, int limit) {
  if (e.kind == BoundKind::kColumn && e.depth == 0 && e.index >= limit) return true;
  for (const BoundExprPtr& c : e.children) {
    if (ReadsBeyond(*c, limit)) return true;
  }
  return false;
}

}  // namespace

Result<std::unique_ptr<BoundSelect>> Binder::BindDerived(const ast::SelectStmt& query,
                                                         const std::string& name,
                                                         const std::vector<std::string>& aliases,
                                                         uint32_t position) {
  // Bound at the level of the FROM list's own query (its scope is not entered yet), so it may
  // reference enclosing queries but not its siblings. Keep this level's correlation flag.
  const size_t level = scope_ == nullptr ? 0 : static_cast<size_t>(scope_->level + 1);
  const bool was_correlated = level < correlated_.size() && correlated_[level];
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundSelect> bound, BindSelectInScope(query));
  if (was_correlated && level < correlated_.size()) correlated_[level] = true;
  MERIDIAN_RETURN_IF_ERROR(RenameColumns(bound.get(), name, aliases, position));
  return bound;
}

Status Binder::RenameColumns(BoundSelect* bound, const std::string& name,
                             const std::vector<std::string>& aliases, uint32_t position) {
  if (aliases.size() > bound->columns.size()) {
    return TooManyAliases(name, bound->columns.size(), aliases.size(), position);
  }
  for (size_t i = 0; i < aliases.size(); ++i) bound->columns[i].name = aliases[i];
  return Status::Ok();
}

int Binder::FindCte(const std::string& name) const {
  for (size_t i = ctes_.size(); i-- > 0;) {
    if (ctes_[i].cte->name == name) return static_cast<int>(i);
  }
  return -1;
}

Result<std::unique_ptr<BoundSelect>> Binder::BindLateral(const ast::TableRef& ref,
                                                         const std::string& name, Scope* scope,
                                                         bool* lateral) {
  auto bind = [&]() -> Result<std::unique_ptr<BoundSelect>> {
    if (ref.function != nullptr) return BindFunctionSource(ref, name);
    return BindDerived(*ref.subquery, name, ref.column_aliases, ref.loc.position);
  };
  const bool saved_read = std::exchange(scope->read_from_below, false);
  Result<std::unique_ptr<BoundSelect>> bound = [&] {
    ScopeSwitch enter(this, scope);  // one level below the FROM list's query
    return bind();
  }();
  *lateral = scope->read_from_below;
  scope->read_from_below = saved_read || *lateral;
  if (!bound.ok() || *lateral) return bound;
  return bind();  // reads none of them: an ordinary FROM item
}

Result<BoundExprPtr> Binder::BindJoinCondition(const ast::TableRef& ref, size_t i) {
  ScopeTable& right = scope_->tables[i];
  const int limit = right.offset + static_cast<int>(right.columns.size());
  if (ref.on != nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr on, BindBoolean(*ref.on, "JOIN/ON"));
    if (ReadsBeyond(*on, limit)) {
      return Status::Error(sqlstate::kUndefinedTable,
                           "invalid reference to FROM-clause entry of a later table")
          .WithPosition(ref.on->loc.position)
          .WithHint("JOIN ... ON may refer only to the tables joined so far.");
    }
    return on;
  }
  BoundExprPtr all;
  for (const std::string& name : ref.using_columns) {
    const int rc = right.Find(name);
    if (rc < 0) {
      return Status::Error(sqlstate::kUndefinedColumn, "column \"" + name +
                                                           "\" specified in USING clause does "
                                                           "not exist in right table")
          .WithPosition(ref.join_loc.position);
    }
    ScopeTable* left = nullptr;
    int lc = -1;
    for (size_t t = 0; t < i; ++t) {
      ScopeTable& st = scope_->tables[t];
      int c = st.Find(name);
      if (c < 0 || std::find(st.using_hidden.begin(), st.using_hidden.end(), name) !=
                       st.using_hidden.end()) {
        continue;
      }
      if (left != nullptr) {
        return Status::Error(sqlstate::kAmbiguousColumn, "common column name \"" + name +
                                                             "\" appears more than once in "
                                                             "left table")
            .WithPosition(ref.join_loc.position);
      }
      left = &st;
      lc = c;
    }
    if (left == nullptr) {
      return Status::Error(sqlstate::kUndefinedColumn, "column \"" + name +
                                                           "\" specified in USING clause does "
                                                           "not exist in left table")
          .WithPosition(ref.join_loc.position);
    }
    const ColumnInfo& rcol = right.columns[rc];
    NoteColumn(right, rc);
    // The left side's value of the column: merged by earlier RIGHT / FULL JOIN ... USING
    // (COALESCE of both sides), else its own column.
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr l,
                              UnqualifiedColumn(*left, lc, 0, ref.join_loc.position));
    const Type left_type = l->type;
    auto r = BoundExpr::Column(0, right.offset + rc, rcol.type, right.name + "." + name);
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr eq, MakeComparison(ast::BinaryOp::kEq, std::move(l),
                                                              std::move(r), ref.join_loc.position));
    right.using_hidden.push_back(name);
    if (ref.join == ast::JoinType::kRight || ref.join == ast::JoinType::kFull) {
      ScopeTable::Merged m;
      m.name = name;
      m.right_index = right.offset + rc;
      m.right_name = right.name + "." + name;
      m.right_type = rcol.type;
      m.full = ref.join == ast::JoinType::kFull;
      m.type = rcol.type;
      if (m.full) {
        std::optional<Type> common = CommonType(left_type, rcol.type);
        if (!common) {
          return Status::Error(sqlstate::kDatatypeMismatch, "JOIN/USING types " + left_type.Name() +
                                                                " and " + rcol.type.Name() +
                                                                " cannot be matched")
              .WithPosition(ref.join_loc.position);
        }
        m.type = *common;
      }
      left->merged.push_back(std::move(m));
    }
    if (all == nullptr) {
      all = std::move(eq);
    } else {
      auto both = std::make_unique<BoundExpr>();
      both->kind = BoundKind::kBinary;
      both->type = Type::Boolean();
      both->binary_op = ast::BinaryOp::kAnd;
      both->children.push_back(std::move(all));
      both->children.push_back(std::move(eq));
      all = std::move(both);
    }
  }
  return all;
}

Status Binder::BindSelectList(const std::vector<ast::SelectItem>& items, bool keep_unknown,
                              BoundSelect* out, std::vector<const ast::Expr*>* item_asts) {
  for (const ast::SelectItem& item : items) {
    const ast::Expr& x = *item.expr;
    if (x.kind == ast::ExprKind::kStar && x.star) {
      // (r).* where r names a column (columns win over FROM items): r's fields.
      bool column = false;
      for (const Scope* s = scope_; s != nullptr && !column; s = s->parent) {
        for (const ScopeTable& st : s->tables) column = column || st.Find(x.table) >= 0;
      }
      if (column) {
        ast::Expr star;
        star.kind = ast::ExprKind::kFieldSelect;
        star.star = true;
        star.loc = x.loc;
        star.children.push_back(std::make_unique<ast::Expr>());
        star.children[0]->kind = ast::ExprKind::kColumnRef;
        star.children[0]->name = x.table;
        star.children[0]->loc = x.loc;
        MERIDIAN_RETURN_IF_ERROR(BindFieldStar(star, out, item_asts));
        continue;
      }
    }
    if (x.kind == ast::ExprKind::kStar) {
      if (scope_->tables.empty()) {
        return Status::Error(sqlstate::kSyntaxError,
                             "SELECT * with no tables specified is not valid")
            .WithPosition(x.loc.position);
      }
      bool matched = false;
      for (const ScopeTable& st : scope_->tables) {
        if (!x.table.empty() && st.name != x.table) continue;
        matched = true;
        const auto& cols = st.columns;
        for (size_t c = 0; c < cols.size(); ++c) {
          if (cols[c].name.empty()) continue;  // a dropped column
          if (x.table.empty() && std::find(st.using_hidden.begin(), st.using_hidden.end(),
                                           cols[c].name) != st.using_hidden.end()) {
            continue;
          }
          if (x.table.empty() && st.FindMerged(cols[c].name) != nullptr) {
            MERIDIAN_ASSIGN_OR_RETURN(
                BoundExprPtr merged, UnqualifiedColumn(st, static_cast<int>(c), 0, x.loc.position));
            out->columns.push_back({cols[c].name, merged->type, true});
            out->projections.push_back(std::move(merged));
            item_asts->push_back(nullptr);
            continue;
          }
          NoteColumn(st, static_cast<int>(c));
          out->projections.push_back(BoundExpr::Column(0, st.offset + static_cast<int>(c),
                                                       cols[c].type, st.name + "." + cols[c].name));
          out->projections.back()->position = x.loc.position;
          out->columns.push_back({cols[c].name, cols[c].type, cols[c].nullable || st.nullable});
          item_asts->push_back(nullptr);
        }
      }
      if (!matched) {
        return Status::Error(sqlstate::kUndefinedTable,
                             "missing FROM-clause entry for table \"" + x.table + "\"")
            .WithPosition(x.loc.position);
      }
      continue;
    }
    if (x.kind == ast::ExprKind::kFieldSelect && x.star) {  // (expr).*
      MERIDIAN_RETURN_IF_ERROR(BindFieldStar(x, out, item_asts));
      continue;
    }
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e, BindExpr(x));
    if (e->type.id == TypeId::kUnknown && !keep_unknown) {
      MERIDIAN_ASSIGN_OR_RETURN(e, Coerce(std::move(e), Type::Text(), false, ""));
    }
    std::string name = item.alias.empty() ? OutputName(x) : item.alias;
    bool nullable = true;
    if (e->kind == BoundKind::kColumn && e->depth == 0) {
      for (const ScopeTable& st : scope_->tables) {
        int c = e->index - st.offset;
        if (c >= 0 && c < static_cast<int>(st.columns.size())) {
          nullable = st.columns[c].nullable || st.nullable;
          break;
        }
      }
    }
    out->columns.push_back({name, e->type, nullable});
    out->projections.push_back(std::move(e));
    item_asts->push_back(&x);
  }
  out->visible = out->projections.size();
  return Status::Ok();
}

Status Binder::BindDistinctOn(const ast::SelectStmt& stmt, BoundSelect* out) {
  std::vector<int> on;
  for (const ast::ExprPtr& x : stmt.distinct_on) {
    MERIDIAN_ASSIGN_OR_RETURN(int column, SortColumn(*x, out));
    if (std::find(on.begin(), on.end(), column) == on.end()) on.push_back(column);
  }
  // The ORDER BY must start with the DISTINCT ON expressions (in any order), as PostgreSQL
  // requires; those it does not list are sorted on after it (ascending).
  const size_t prefix = std::min(on.size(), out->order_by.size());
  for (size_t i = 0; i < prefix; ++i) {
    if (std::find(on.begin(), on.end(), out->order_by[i].column) == on.end()) {
      return Status::Error(sqlstate::kInvalidColumnReference,
                           "SELECT DISTINCT ON expressions must match initial ORDER BY expressions")
          .WithPosition(stmt.distinct_on[0]->loc.position);
    }
  }
  for (int column : on) {
    bool sorted = false;
    for (size_t i = 0; i < prefix; ++i) sorted = sorted || out->order_by[i].column == column;
    if (sorted) continue;
    SortKey key;
    key.column = column;
    out->order_by.push_back(key);  // ascending, NULLs last
  }
  out->distinct_on = std::move(on);
  return Status::Ok();
}

Result<int> Binder::SortColumn(const ast::Expr& x, BoundSelect* out) {
  MERIDIAN_ASSIGN_OR_RETURN(int column, OrderByPosition(x, out->visible));
  if (column < 0 && x.kind == ast::ExprKind::kColumnRef && x.table.empty()) {
    // An output column name takes precedence over an input column (SQL-92 rule).
    for (size_t i = 0; i < out->visible; ++i) {
      if (out->columns[i].name != x.name) continue;
      if (column >= 0 && !out->projections[column]->Equals(*out->projections[i])) {
        return Status::Error(sqlstate::kAmbiguousColumn, "ORDER BY \"" + x.name + "\" is ambiguous")
            .WithPosition(x.loc.position);
      }
      if (column < 0) column = static_cast<int>(i);
    }
  }
  if (column < 0) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e, BindExpr(x));
    if (e->type.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(e, Coerce(std::move(e), Type::Text(), false, ""));
    }
    for (size_t i = 0; i < out->projections.size(); ++i) {
      if (out->projections[i]->Equals(*e)) {
        column = static_cast<int>(i);
        break;
      }
    }
    if (column < 0) {
      column = static_cast<int>(out->projections.size());
      out->projections.push_back(std::move(e));
    }
  }
  return column;
}

Status Binder::BindOrderBy(const ast::SelectStmt& stmt, const std::vector<const ast::Expr*>& items,
                           BoundSelect* out) {
  for (const ast::OrderItem& o : stmt.order_by) {
    const ast::Expr& x = *o.expr;
    MERIDIAN_ASSIGN_OR_RETURN(int column, SortColumn(x, out));
    if (out->projections[column]->type.id == TypeId::kJsonb && !stmt.distinct) {
      // ORDER BY a jsonb expression sorts by jsonb_sortkey(expression), a hidden bytea column
      // whose bytes order as jsonb's B-tree order (its text does not: "10" < "9"). The
      // expression is bound again from its select-list item (or the ORDER BY item); the text
      // order stays where neither can be (an ordinal over `*`, an aggregate).
      const BoundExpr& p = *out->projections[column];
      BoundExprPtr e;
      if (p.kind == BoundKind::kColumn) {
        e = BoundExpr::Column(p.depth, p.index, p.type, p.name);
      } else if (!p.ContainsAggregate()) {
        const ast::Expr* ast = static_cast<size_t>(column) < items.size() ? items[column] : nullptr;
        if (ast == nullptr && static_cast<size_t>(column) >= out->visible) ast = &x;
        if (ast != nullptr) {
          MERIDIAN_ASSIGN_OR_RETURN(e, BindExpr(*ast));
          if (e->type.id != TypeId::kJsonb) e.reset();
        }
      }
      if (e != nullptr) {
        std::vector<BoundExprPtr> args;
        args.push_back(std::move(e));
        MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr key, MakeJsonCall("jsonb_sortkey", std::move(args),
                                                                 Type::Bytea(), x.loc.position));
        column = static_cast<int>(out->projections.size());
        out->projections.push_back(std::move(key));
      }
    }
    if (NoEqualityType(out->projections[column]->type)) {
      return Status::Error(sqlstate::kUndefinedFunction,
                           "could not identify an ordering operator for type " +
                               out->projections[column]->type.Name())
          .WithHint("Use an explicit ordering operator or modify the query.")
          .WithPosition(x.loc.position);
    }
    SortKey key;
    key.column = column;
    key.descending = o.descending;
    // PostgreSQL sorts NULL above every value: last ascending, first descending.
    key.nulls_first = o.nulls_first.value_or(o.descending);
    out->order_by.push_back(key);
  }
  return Status::Ok();
}

Result<BoundExprPtr> Binder::BindLimit(const ast::Expr& expr, const char* what,
                                       bool outer_columns) {
  rules_ = ExprRules{what, false, outer_columns, true};
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e, BindExpr(expr));
  // An enclosing query's columns are constants here (LIMIT d.quota in a LATERAL subquery);
  // the query's own are not.
  std::function<const BoundExpr*(const BoundExpr&)> own_column =
      [&](const BoundExpr& x) -> const BoundExpr* {
    if (x.kind == BoundKind::kColumn && x.depth == 0) return &x;
    for (const BoundExprPtr& c : x.children) {
      if (const BoundExpr* found = own_column(*c)) return found;
    }
    return nullptr;
  };
  if (const BoundExpr* column = own_column(*e)) {
    return Status::Error(sqlstate::kInvalidColumnReference,
                         std::string("argument of ") + what + " must not contain variables")
        .WithPosition(column->position);
  }
  if (e->type.id == TypeId::kUnknown || e->type.IsNumeric()) {
    return Coerce(std::move(e), Type::BigInt(), false, "");
  }
  return Status::Error(sqlstate::kDatatypeMismatch, std::string("argument of ") + what +
                                                        " must be type bigint, not type " +
                                                        e->type.Name())
      .WithPosition(expr.loc.position);
}

}  // namespace meridian::exec
