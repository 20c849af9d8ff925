// FromPlanner: FROM scans with pushed-down conjuncts and the left-deep join chain (nested
// loop, hash join, index nested-loop join by estimated cost), plus the Builder and expression
// helpers of plan_internal.h.
#include <algorithm>
#include <cmath>

#include "exec/plan_internal.h"
#include "exec/planner.h"

namespace meridian::exec {

namespace {

JoinKind KindOf(ast::JoinType t) {
  switch (t) {
    case ast::JoinType::kLeft:
      return JoinKind::kLeft;
    case ast::JoinType::kRight:
      return JoinKind::kRight;
    case ast::JoinType::kFull:
      return JoinKind::kFull;
    default:
      return JoinKind::kInner;
  }
}

std::string JoinSuffix(JoinKind k) {
  switch (k) {
    case JoinKind::kLeft:
      return " Left Join";
    case JoinKind::kRight:
      return " Right Join";
    case JoinKind::kFull:
      return " Full Join";
    case JoinKind::kInner:
      break;
  }
  return "";
}

bool HasSubquery(const BoundExpr& e) {
  if (e.subquery != nullptr) return true;
  for (const BoundExprPtr& c : e.children) {
    if (HasSubquery(*c)) return true;
  }
  return false;
}

// Rescan side of an index nested-loop join runs one level deeper: the left row becomes its
// outer row. from_left: depth-0 references are the left row's (→ depth 1); references to
// enclosing queries go one level further out either way.
void ShiftForRescan(BoundExpr* e, bool from_left) {
  if (e->kind == BoundKind::kColumn && (e->depth > 0 || from_left)) ++e->depth;
  for (BoundExprPtr& c : e->children) ShiftForRescan(c.get(), from_left);
}

}  // namespace

Built Builder::Make(OperatorPtr op, std::unique_ptr<PlanNode> node, std::vector<Built*> children) {
  for (Built* c : children) node->children.push_back(std::move(c->node));
  if (instrument_) op = std::make_unique<InstrumentOp>(std::move(op), &node->actual);
  return {std::move(op), std::move(node)};
}

void CollectColumns(const BoundExpr& e, std::vector<bool>* used, bool* all) {
  if (e.kind == BoundKind::kColumn && e.depth == 0) {
    if (static_cast<size_t>(e.index) < used->size()) (*used)[e.index] = true;
  }
  if (e.subquery != nullptr && e.subquery->correlated) *all = true;
  for (const BoundExprPtr& c : e.children) CollectColumns(*c, used, all);
}

void Rebase(BoundExpr* e, int offset) {
  if (e->kind == BoundKind::kColumn && e->depth == 0) e->index -= offset;
  for (BoundExprPtr& c : e->children) Rebase(c.get(), offset);
}

std::string Conditions(const std::vector<BoundExprPtr>& conds) {
  std::string out;
  for (size_t i = 0; i < conds.size(); ++i) {
    if (i > 0) out += " AND ";
    out += ExprToString(*conds[i]);
  }
  return conds.size() > 1 ? "(" + out + ")" : out;
}

FromPlanner::FromPlanner(BoundSelect* s, Builder* builder, std::vector<bool> used, bool all_used)
    : s_(s), b_(builder), used_(std::move(used)), all_used_(all_used) {
  int total = 0;
  for (size_t t = 0; t < s_->from.size(); ++t) {
    offsets_.push_back(total);
    widths_.push_back(static_cast<int>(s_->from[t] != nullptr ? s_->from[t]->types().size()
                                                              : s_->derived[t]->columns.size()));
    total += widths_.back();
  }
  used_.resize(static_cast<size_t>(total), false);
  for (const BoundExprPtr& on : s_->join_on) {
    if (on != nullptr) CollectColumns(*on, &used_, &all_used_);
  }
  nullable_.assign(s_->from.size(), false);
  for (size_t i = 0; i < s_->from.size(); ++i) {
    const ast::JoinType t = i < s_->join_types.size() ? s_->join_types[i] : ast::JoinType::kComma;
    if (t == ast::JoinType::kLeft || t == ast::JoinType::kFull) nullable_[i] = true;
    if (t == ast::JoinType::kRight || t == ast::JoinType::kFull) {
      for (size_t k = 0; k < i; ++k) nullable_[k] = true;
    }
  }
}

std::vector<bool> FromPlanner::TablesOf(const BoundExpr& c, bool* correlated) const {
  std::vector<bool> cols(used_.size(), false);
  CollectColumns(c, &cols, correlated);
  std::vector<bool> tables(s_->from.size(), false);
  for (size_t t = 0; t < s_->from.size(); ++t) {
    for (int col = offsets_[t]; col < offsets_[t] + widths_[t]; ++col) {
      if (cols[col]) tables[t] = true;
    }
  }
  return tables;
}

Result<Built> FromPlanner::Plan(std::vector<BoundExprPtr> where,
                                const std::vector<AccessPlan::OrderColumn>& wanted,
                                std::optional<double> limit, bool* ordered) {
  const size_t n = s_->from.size();
  // ON of inner joins is just more WHERE; an outer join keeps its ON for itself.
  std::vector<std::vector<BoundExprPtr>> outer_on(n);
  for (size_t i = 0; i < n && i < s_->join_on.size(); ++i) {
    if (s_->join_on[i] == nullptr) continue;
    std::vector<BoundExprPtr> conj = SplitConjuncts(std::move(s_->join_on[i]));
    if (KindOf(s_->join_types[i]) == JoinKind::kInner) {
      for (BoundExprPtr& c : conj) where.push_back(std::move(c));
    } else {
      outer_on[i] = std::move(conj);
    }
  }
  std::vector<std::vector<BoundExprPtr>> pushed(n), step(n);
  std::vector<BoundExprPtr> last;  // must wait until every join is done
  for (BoundExprPtr& c : where) {
    bool correlated = false;
    std::vector<bool> tables = TablesOf(*c, &correlated);
    int count = 0, first = -1, max_t = -1;
    bool touches_nullable = false;
    for (size_t t = 0; t < n; ++t) {
      if (!tables[t]) continue;
      ++count;
      if (first < 0) first = static_cast<int>(t);
      max_t = static_cast<int>(t);
      touches_nullable |= nullable_[t];
    }
    if (correlated || touches_nullable || (count == 0 && n > 1 && nullable_[0])) {
      last.push_back(std::move(c));
    } else if (count <= 1) {
      const size_t t = count == 0 ? 0 : static_cast<size_t>(first);
      Rebase(c.get(), offsets_[t]);
      pushed[t].push_back(std::move(c));
    } else {
      step[max_t].push_back(std::move(c));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    for (BoundExprPtr& c : outer_on[i]) {
      bool correlated = false;
      std::vector<bool> tables = TablesOf(*c, &correlated);
      bool only_right = tables[i];
      for (size_t t = 0; t < n; ++t) only_right &= (t == i) || !tables[t];
      // Filtering the NULL-extended side of a LEFT join before joining is the same as in ON.
      if (!correlated && only_right && KindOf(s_->join_types[i]) == JoinKind::kLeft) {
        Rebase(c.get(), offsets_[i]);
        pushed[i].push_back(std::move(c));
      } else {
        step[i].push_back(std::move(c));
      }
    }
  }
  bool single_ordered = false;
  MERIDIAN_ASSIGN_OR_RETURN(
      Built cur,
      Scan(0, std::move(pushed[0]), n == 1 ? wanted : std::vector<AccessPlan::OrderColumn>{},
           n == 1 ? limit : std::nullopt, &single_ordered));
  if (ordered != nullptr) *ordered = n == 1 && single_ordered;
  for (size_t i = 1; i < n; ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(cur,
                              Join(std::move(cur), i, std::move(pushed[i]), std::move(step[i])));
  }
  if (!last.empty()) {
    cur.node->details.push_back("Filter: " + Conditions(last));
    cur.node->rows =
        std::max(1.0, cur.node->rows * std::pow(0.5, static_cast<double>(last.size())));
    cur.op = std::make_unique<FilterOp>(std::move(cur.op), JoinConjuncts(std::move(last)));
  }
  return cur;
}

Result<Built> FromPlanner::DerivedScan(size_t t, std::vector<BoundExprPtr> conjuncts) {
  if (s_->derived[t]->function != nullptr) {  // unnest(...), generate_series(...) in FROM
    BoundExprPtr call = std::move(s_->derived[t]->function);
    auto node = std::make_unique<PlanNode>();
    node->label = "Function Scan on " + call->name;
    if (s_->from_names[t] != call->name) node->label += " " + s_->from_names[t];
    node->rows = 1000;  // PostgreSQL's default estimate for a set-returning function (prorows)
    for (size_t i = 0; i < conjuncts.size(); ++i) node->rows *= 0.5;
    node->total_cost = 10 + (conjuncts.empty() ? 0 : 1000 * kCpuOperatorCost);
    node->width = 32;
    OperatorPtr op = std::make_unique<FunctionScanOp>(std::move(call));
    if (!conjuncts.empty()) {
      node->details.push_back("Filter: " + Conditions(conjuncts));
      op = std::make_unique<FilterOp>(std::move(op), JoinConjuncts(std::move(conjuncts)));
    }
    return b_->Make(std::move(op), std::move(node));
  }
  MERIDIAN_ASSIGN_OR_RETURN(PlannedSelect sub,
                            PlanSelectExplained(std::move(s_->derived[t]), b_->instrument()));
  Built inner{std::move(sub.root), std::move(sub.explain)};
  auto node = std::make_unique<PlanNode>();
  node->label = "Subquery Scan on " + s_->from_names[t];
  double sel = 1;
  for (size_t i = 0; i < conjuncts.size(); ++i) sel *= 0.5;
  node->rows = std::max(1.0, inner.node->rows * sel);
  node->startup_cost = inner.node->startup_cost;
  node->total_cost = inner.node->total_cost + inner.node->rows * kCpuOperatorCost;
  node->width = inner.node->width;
  OperatorPtr op = std::move(inner.op);
  if (!conjuncts.empty()) {
    node->details.push_back("Filter: " + Conditions(conjuncts));
    op = std::make_unique<FilterOp>(std::move(op), JoinConjuncts(std::move(conjuncts)));
  }
  return b_->Make(std::move(op), std::move(node), {&inner});
}

Result<Built> FromPlanner::Scan(size_t t, std::vector<BoundExprPtr> conjuncts,
                                const std::vector<AccessPlan::OrderColumn>& wanted,
                                std::optional<double> limit, bool* ordered) {
  if (s_->from[t] == nullptr) {
    if (ordered != nullptr) *ordered = false;
    return DerivedScan(t, std::move(conjuncts));
  }
  const std::shared_ptr<catalog::Table>& table = s_->from[t];
  AccessRequest req;
  req.table = table;
  req.conjuncts = std::move(conjuncts);
  if (!all_used_) {
    req.needed_columns.assign(used_.begin() + offsets_[t],
                              used_.begin() + offsets_[t] + widths_[t]);
  }
  req.wanted_order = wanted;
  req.limit = limit;
  AccessPlan plan = ChooseAccessPath(std::move(req), ordered);
  auto node = std::make_unique<PlanNode>();
  switch (plan.kind) {
    case AccessPlan::Kind::kSeqScan:
      node->label = "Seq Scan on " + table->name();
      break;
    case AccessPlan::Kind::kIndexScan:
      node->label = std::string(plan.reverse ? "Index Scan Backward" : "Index Scan") + " using " +
                    plan.index->name() + " on " + table->name();
      break;
    case AccessPlan::Kind::kIndexOnlyScan:
      node->label = std::string(plan.reverse ? "Index Only Scan Backward" : "Index Only Scan") +
                    " using " + plan.index->name() + " on " + table->name();
      break;
  }
  if (!plan.index_conds.empty()) {
    node->details.push_back("Index Cond: " + Conditions(plan.index_conds));
  }
  if (!plan.residual.empty()) node->details.push_back("Filter: " + Conditions(plan.residual));
  node->startup_cost = plan.startup_cost;
  node->total_cost = plan.total_cost;
  node->rows = plan.rows;
  node->width = RowWidth(table->types());
  BoundExprPtr residual = JoinConjuncts(std::move(plan.residual));
  std::unique_ptr<RowSourceOp> scan = MakeAccessOperator(table, &plan);
  const RowSourceOp* scan_ptr = scan.get();
  OperatorPtr op = std::move(scan);
  if (residual != nullptr) op = std::make_unique<FilterOp>(std::move(op), std::move(residual));
  if (t < s_->lock_rows.size() && s_->lock_rows[t]) {  // FOR UPDATE: rows passing the filter
    op = std::make_unique<LockRowsOp>(std::move(op), scan_ptr, table, s_->lock_nowait,
                                      s_->lock_skip_locked);
  }
  return b_->Make(std::move(op), std::move(node));
}

Result<Built> FromPlanner::Join(Built left, size_t t, std::vector<BoundExprPtr> pushed,
                                std::vector<BoundExprPtr> conds) {
  const JoinKind kind = KindOf(s_->join_types[t]);
  // A derived table has no statistics or indexes: plan it first and estimate from its plan.
  Built derived_right;
  if (s_->from[t] == nullptr) {
    MERIDIAN_ASSIGN_OR_RETURN(derived_right, DerivedScan(t, std::move(pushed)));
    pushed.clear();
  }
  const bool is_derived = derived_right.op != nullptr;
  const int off = offsets_[t];
  const size_t left_width = static_cast<size_t>(off);
  const size_t right_width = static_cast<size_t>(widths_[t]);

  // Equality conditions between the tables so far and this one: hash or index keys.
  struct Equi {
    size_t cond;
    bool right_first;  // children[0] is the right side
    int right_column;  // table column when the right side is a plain column, else -1
  };
  std::vector<Equi> equis;
  for (size_t i = 0; i < conds.size(); ++i) {
    const BoundExpr& c = *conds[i];
    if (c.kind != BoundKind::kBinary || c.binary_op != ast::BinaryOp::kEq || HasSubquery(c)) {
      continue;
    }
    auto side = [&](const BoundExpr& e) {  // 1 left only, 2 right only, 0 neither/both
      bool corr = false;
      std::vector<bool> tables = TablesOf(e, &corr);
      bool any_left = false, any_right = tables[t];
      for (size_t k = 0; k < t; ++k) any_left |= tables[k];
      for (size_t k = t + 1; k < tables.size(); ++k) {
        if (tables[k]) return 0;
      }
      if (any_left && !any_right) return 1;
      if (any_right && !any_left) return 2;
      return 0;
    };
    const BoundExpr& a = *c.children[0];
    const BoundExpr& z = *c.children[1];
    if (KeyFamily(a.type) == 0 || KeyFamily(a.type) != KeyFamily(z.type)) continue;
    const int sa = side(a), sz = side(z);
    if (!((sa == 1 && sz == 2) || (sa == 2 && sz == 1))) continue;
    const BoundExpr& right_side = sa == 2 ? a : z;
    const int col = right_side.kind == BoundKind::kColumn && right_side.depth == 0
                        ? right_side.index - off
                        : -1;
    equis.push_back({i, sa == 2, col});
  }

  // Estimates (PostgreSQL's units) for nested loop, hash join and index nested-loop join.
  const catalog::Table* table = s_->from[t].get();  // null for a derived table
  std::shared_ptr<const catalog::TableStats> stats = table ? table->stats() : nullptr;
  std::vector<std::shared_ptr<catalog::Index>> indexes;
  if (table != nullptr) indexes = table->IndexSnapshot();
  double table_rows = is_derived ? std::max(1.0, derived_right.node->rows)
                                 : std::max<double>(1, static_cast<double>(table->live_rows()));
  double right_sel = 1;
  for (const BoundExprPtr& c : pushed) right_sel *= EstimateSelectivity(*c, *table);
  const double right_rows = std::max(1.0, table_rows * right_sel);
  const double pages = std::max(1.0, std::ceil(table_rows * 60 / 8160));
  const double right_cost =
      is_derived ? derived_right.node->total_cost
                 : pages + table_rows * kCpuTupleCost +
                       table_rows * static_cast<double>(pushed.size()) * kCpuOperatorCost;
  const double left_rows = std::max(1.0, left.node->rows);
  const double left_cost = left.node->total_cost;
  auto distinct_of = [&](int col) {
    if (col >= 0 && stats != nullptr && static_cast<size_t>(col) < stats->columns.size() &&
        stats->columns[col].distinct >= 1) {
      return stats->columns[col].distinct;
    }
    for (const auto& index : indexes) {
      const catalog::IndexSchema& x = index->schema();
      if (x.unique && x.columns.size() == 1 && x.columns[0] == col) return table_rows;
    }
    return std::max(1.0, table_rows / 10);
  };
  double join_sel = std::pow(0.5, static_cast<double>(conds.size()));
  if (!equis.empty()) join_sel = 1.0 / distinct_of(equis[0].right_column);
  const double out_rows = std::max(1.0, left_rows * right_rows * join_sel);
  const double nl_cost =
      left_cost + right_cost + left_rows * right_rows * kCpuOperatorCost * (1 + conds.size());
  double hash_cost = -1;
  if (!equis.empty()) {
    hash_cost = left_cost + right_cost + (left_rows + right_rows) * 2 * kCpuOperatorCost +
                out_rows * kCpuTupleCost;
  }
  double inlj_cost = -1;
  if (!equis.empty() && (kind == JoinKind::kInner || kind == JoinKind::kLeft)) {
    for (const auto& index : indexes) {
      const int lead = index->schema().columns[0];
      for (const Equi& e : equis) {
        if (e.right_column != lead) continue;
        const bool unique1 = index->schema().unique && index->schema().columns.size() == 1;
        const double matched = unique1 ? 1.0 : table_rows / distinct_of(lead);
        const double probe = 1.25 + matched * (kRandomPageCost + kCpuTupleCost);
        const double cost = left_cost + left_rows * probe;
        if (inlj_cost < 0 || cost < inlj_cost) inlj_cost = cost;
      }
    }
  }
  enum class Method { kNestedLoop, kHash, kIndexNestedLoop } method = Method::kNestedLoop;
  double best = nl_cost;
  if (hash_cost >= 0 && hash_cost < best) {
    method = Method::kHash;
    best = hash_cost;
  }
  if (inlj_cost >= 0 && inlj_cost < best) {
    method = Method::kIndexNestedLoop;
    best = inlj_cost;
  }

  auto node = std::make_unique<PlanNode>();
  node->rows = out_rows;
  node->startup_cost = left.node->startup_cost;
  node->total_cost = best;
  node->width =
      left.node->width + (is_derived ? derived_right.node->width : RowWidth(table->types()));
  OperatorPtr op;
  Built right;
  if (method == Method::kHash) {
    std::vector<BoundExprPtr> hash_conds, residual;
    std::vector<BoundExprPtr> left_keys, right_keys;
    std::vector<bool> is_equi(conds.size(), false);
    for (const Equi& e : equis) is_equi[e.cond] = true;
    std::string hash_text;
    for (const Equi& e : equis) {
      hash_text += (hash_text.empty() ? "" : " AND ") + ExprToString(*conds[e.cond]);
      BoundExprPtr& a = conds[e.cond]->children[0];
      BoundExprPtr& z = conds[e.cond]->children[1];
      BoundExprPtr r = std::move(e.right_first ? a : z);
      BoundExprPtr l = std::move(e.right_first ? z : a);
      Rebase(r.get(), off);
      left_keys.push_back(std::move(l));
      right_keys.push_back(std::move(r));
    }
    for (size_t i = 0; i < conds.size(); ++i) {
      if (!is_equi[i]) residual.push_back(std::move(conds[i]));
    }
    node->label = "Hash" + (kind == JoinKind::kInner ? std::string(" Join") : JoinSuffix(kind));
    node->details.push_back("Hash Cond: " + (equis.size() > 1 ? "(" + hash_text + ")" : hash_text));
    if (!residual.empty()) node->details.push_back("Join Filter: " + Conditions(residual));
    if (is_derived) {
      right = std::move(derived_right);
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(right, Scan(t, std::move(pushed), {}, std::nullopt, nullptr));
    }
    op = std::make_unique<HashJoinOp>(std::move(left.op), std::move(right.op), std::move(left_keys),
                                      std::move(right_keys), JoinConjuncts(std::move(residual)),
                                      kind, left_width, right_width);
  } else if (method == Method::kIndexNestedLoop) {
    // The right side is re-read per left row; its key conditions read the left row as depth 1.
    std::vector<BoundExprPtr> residual;
    std::vector<bool> is_key(conds.size(), false);
    for (BoundExprPtr& c : pushed) ShiftForRescan(c.get(), /*from_left=*/false);
    for (const Equi& e : equis) {
      if (e.right_column < 0) continue;
      is_key[e.cond] = true;
      BoundExprPtr& a = conds[e.cond]->children[0];
      BoundExprPtr& z = conds[e.cond]->children[1];
      BoundExpr* r = (e.right_first ? a : z).get();
      BoundExpr* l = (e.right_first ? z : a).get();
      Rebase(r, off);
      ShiftForRescan(r, /*from_left=*/false);
      ShiftForRescan(l, /*from_left=*/true);
      pushed.push_back(std::move(conds[e.cond]));
    }
    for (size_t i = 0; i < conds.size(); ++i) {
      if (!is_key[i]) residual.push_back(std::move(conds[i]));
    }
    node->label = "Nested Loop" + JoinSuffix(kind);
    if (!residual.empty()) node->details.push_back("Join Filter: " + Conditions(residual));
    MERIDIAN_ASSIGN_OR_RETURN(right, Scan(t, std::move(pushed), {}, std::nullopt, nullptr));
    op = std::make_unique<NestedLoopJoinOp>(std::move(left.op), std::move(right.op), kind,
                                            JoinConjuncts(std::move(residual)), /*rescan=*/true,
                                            left_width, right_width);
  } else {
    node->label = "Nested Loop" + JoinSuffix(kind);
    if (!conds.empty()) node->details.push_back("Join Filter: " + Conditions(conds));
    if (is_derived) {
      right = std::move(derived_right);
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(right, Scan(t, std::move(pushed), {}, std::nullopt, nullptr));
    }
    op = std::make_unique<NestedLoopJoinOp>(std::move(left.op), std::move(right.op), kind,
                                            JoinConjuncts(std::move(conds)), false, left_width,
                                            right_width);
  }
  return b_->Make(std::move(op), std::move(node), {&left, &right});
}

}  // namespace meridian::exec
