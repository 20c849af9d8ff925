// PlanSelect: predicate pushdown, access paths, joins and the SELECT pipeline (see planner.h).
#include <algorithm>
#include <cmath>

#include "exec/access_path.h"
#include "exec/planner.h"

namespace meridian::exec {

namespace {

struct Built {
  OperatorPtr op;
  std::unique_ptr<PlanNode> node;
};

class Builder {
 public:
  explicit Builder(bool instrument) : instrument_(instrument) {}

  // Wraps op for EXPLAIN ANALYZE and attaches children nodes.
  Built Make(OperatorPtr op, std::unique_ptr<PlanNode> node, std::vector<Built*> children = {}) {
    for (Built* c : children) node->children.push_back(std::move(c->node));
    if (instrument_) op = std::make_unique<InstrumentOp>(std::move(op), &node->actual);
    return {std::move(op), std::move(node)};
  }

 private:
  bool instrument_;
};

// Marks the depth-0 columns e uses (in the joined row); *all when e holds a correlated
// subquery (it may read any column of this row).
void CollectColumns(const BoundExpr& e, std::vector<bool>* used, bool* all) {
  if (e.kind == BoundKind::kColumn && e.depth == 0) {
    if (static_cast<size_t>(e.index) < used->size()) (*used)[e.index] = true;
  }
  if (e.subquery != nullptr && e.subquery->correlated) *all = true;
  for (const BoundExprPtr& c : e.children) CollectColumns(*c, used, all);
}

// Shifts depth-0 column slots by -offset (a conjunct moving from the joined row to one table).
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

double SortCost(double rows) { return 2.0 * kCpuOperatorCost * rows * std::log2(rows + 2); }

}  // namespace

Result<PlannedSelect> PlanSelectExplained(std::unique_ptr<BoundSelect> s, bool instrument) {
  Builder b(instrument);
  Built cur;
  bool ordered_by_index = false;

  // Which columns of the joined row the query reads, and the tables' column ranges.
  std::vector<int> offsets;
  int total_cols = 0;
  for (const auto& table : s->from) {
    offsets.push_back(total_cols);
    total_cols += static_cast<int>(table->types().size());
  }
  std::vector<bool> used(static_cast<size_t>(total_cols), false);
  bool all_used = false;
  std::vector<BoundExprPtr> conjuncts = SplitConjuncts(std::move(s->where));
  if (s->aggregated) {
    for (const auto& g : s->group_by) CollectColumns(*g, &used, &all_used);
    for (const auto& a : s->aggregates) CollectColumns(*a, &used, &all_used);
    if (s->having) CollectColumns(*s->having, &used, &all_used);
  } else {
    for (const auto& p : s->projections) CollectColumns(*p, &used, &all_used);
  }
  for (const auto& c : conjuncts) CollectColumns(*c, &used, &all_used);

  if (s->from.empty()) {
    std::vector<std::vector<BoundExprPtr>> one_empty_row(1);
    auto node = std::make_unique<PlanNode>();
    node->label = "Result";
    node->rows = 1;
    node->total_cost = 0.01;
    OperatorPtr op = std::make_unique<ValuesOp>(std::move(one_empty_row));
    if (!conjuncts.empty()) {
      node->details.push_back("One-Time Filter: " + Conditions(conjuncts));
      op = std::make_unique<FilterOp>(std::move(op), JoinConjuncts(std::move(conjuncts)));
    }
    cur = b.Make(std::move(op), std::move(node));
  } else {
    // Push each conjunct that reads one table only (and no correlated subquery) to it.
    std::vector<std::vector<BoundExprPtr>> pushed(s->from.size());
    std::vector<BoundExprPtr> above;
    for (BoundExprPtr& c : conjuncts) {
      std::vector<bool> cols(static_cast<size_t>(total_cols), false);
      bool correlated = false;
      CollectColumns(*c, &cols, &correlated);
      int owner = -1;
      bool several = false;
      for (size_t t = 0; t < s->from.size(); ++t) {
        const int end = t + 1 < offsets.size() ? offsets[t + 1] : total_cols;
        for (int col = offsets[t]; col < end; ++col) {
          if (!cols[col]) continue;
          if (owner >= 0 && owner != static_cast<int>(t)) several = true;
          owner = static_cast<int>(t);
        }
      }
      if (correlated || several || (owner < 0 && s->from.size() > 1)) {
        above.push_back(std::move(c));
        continue;
      }
      if (owner < 0) owner = 0;
      Rebase(c.get(), offsets[owner]);
      pushed[owner].push_back(std::move(c));
    }

    // A single-table query may take its ORDER BY (and LIMIT) from an index.
    std::vector<AccessPlan::OrderColumn> wanted;
    std::optional<double> limit;
    if (s->from.size() == 1 && !s->aggregated && !s->distinct && !s->order_by.empty()) {
      for (const SortKey& k : s->order_by) {
        const BoundExpr& p = *s->projections[k.column];
        if (p.kind != BoundKind::kColumn || p.depth != 0 || k.nulls_first != k.descending) {
          wanted.clear();
          break;
        }
        wanted.push_back({p.index, k.descending});
      }
      if (!wanted.empty() && s->limit != nullptr && s->limit->kind == BoundKind::kConst &&
          s->limit->value.IsInt()) {
        double skip = 0;
        if (s->offset != nullptr && s->offset->kind == BoundKind::kConst &&
            s->offset->value.IsInt()) {
          skip = static_cast<double>(s->offset->value.AsInt());
        } else if (s->offset != nullptr) {
          skip = 0;
        }
        limit = static_cast<double>(s->limit->value.AsInt()) + skip;
      }
    }

    for (size_t t = 0; t < s->from.size(); ++t) {
      std::shared_ptr<catalog::Table>& table = s->from[t];
      AccessRequest req;
      req.table = table;
      req.conjuncts = std::move(pushed[t]);
      if (!all_used) {
        const size_t n = table->types().size();
        req.needed_columns.assign(used.begin() + offsets[t], used.begin() + offsets[t] + n);
      }
      if (s->from.size() == 1) {
        req.wanted_order = wanted;
        req.limit = limit;
      }
      bool ordered = false;
      AccessPlan plan = ChooseAccessPath(std::move(req), &ordered);
      if (s->from.size() == 1) ordered_by_index = ordered;
      auto node = std::make_unique<PlanNode>();
      switch (plan.kind) {
        case AccessPlan::Kind::kSeqScan:
          node->label = "Seq Scan on " + table->name();
          break;
        case AccessPlan::Kind::kIndexScan:
          node->label = std::string(plan.reverse ? "Index Scan Backward" : "Index Scan") +
                        " using " + plan.index->name() + " on " + table->name();
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
      OperatorPtr op = MakeAccessOperator(table, &plan);
      if (residual != nullptr) op = std::make_unique<FilterOp>(std::move(op), std::move(residual));
      Built scan = b.Make(std::move(op), std::move(node));
      if (cur.op == nullptr) {
        cur = std::move(scan);
        continue;
      }
      auto join = std::make_unique<PlanNode>();
      join->label = "Nested Loop";
      join->rows = cur.node->rows * scan.node->rows;
      join->startup_cost = cur.node->startup_cost + scan.node->total_cost;
      join->total_cost =
          cur.node->total_cost + scan.node->total_cost + join->rows * kCpuTupleCost;
      join->width = cur.node->width + scan.node->width;
      auto op_join = std::make_unique<NestedLoopJoinOp>(std::move(cur.op), std::move(scan.op));
      cur = b.Make(std::move(op_join), std::move(join), {&cur, &scan});
    }
    if (!above.empty()) {
      // Filters above a join are shown on the join, as PostgreSQL shows "Join Filter".
      cur.node->details.push_back((s->from.size() > 1 ? "Join Filter: " : "Filter: ") +
                                  Conditions(above));
      double sel = std::pow(0.5, static_cast<double>(above.size()));
      cur.node->rows = std::max(1.0, cur.node->rows * sel);
      cur.op = std::make_unique<FilterOp>(std::move(cur.op), JoinConjuncts(std::move(above)));
    }
  }

  if (s->aggregated) {
    bool scalar = s->group_by.empty();
    auto node = std::make_unique<PlanNode>();
    node->label = scalar ? "Aggregate" : "HashAggregate";
    if (!scalar) node->details.push_back("Group Key: " + [&] {
      std::string keys;
      for (size_t i = 0; i < s->group_by.size(); ++i) {
        keys += (i ? ", " : "") + ExprToString(*s->group_by[i]);
      }
      return keys;
    }());
    const double in_rows = cur.node->rows;
    node->rows = scalar ? 1 : std::max(1.0, std::min(200.0, in_rows / 10));
    node->startup_cost = cur.node->total_cost + in_rows * kCpuOperatorCost;
    node->total_cost = node->startup_cost + node->rows * kCpuTupleCost;
    node->width = 8 * static_cast<int>(s->group_by.size() + s->aggregates.size());
    if (s->having != nullptr) node->details.push_back("Filter: " + ExprToString(*s->having));
    OperatorPtr op = std::make_unique<HashAggregateOp>(
        std::move(cur.op), std::move(s->group_by), std::move(s->aggregates), scalar);
    if (s->having != nullptr) op = std::make_unique<FilterOp>(std::move(op), std::move(s->having));
    cur = b.Make(std::move(op), std::move(node), {&cur});
  }
  const size_t total = s->projections.size();
  std::string sort_keys;
  for (size_t i = 0; i < s->order_by.size(); ++i) {
    const SortKey& k = s->order_by[i];
    sort_keys += (i ? ", " : "") + ExprToString(*s->projections[k.column]) +
                 (k.descending ? " DESC" : "") +
                 (k.nulls_first != k.descending ? (k.nulls_first ? " NULLS FIRST" : " NULLS LAST")
                                                : "");
  }
  std::vector<Type> out_types;
  for (const auto& p : s->projections) out_types.push_back(p->type);
  cur.op = std::make_unique<ProjectOp>(std::move(cur.op), std::move(s->projections));
  cur.node->width = RowWidth(out_types);
  if (s->distinct) {
    auto node = std::make_unique<PlanNode>();
    node->label = "HashAggregate";
    node->details.push_back("Group Key: (all output columns)");
    node->rows = cur.node->rows;
    node->startup_cost = cur.node->total_cost + cur.node->rows * kCpuOperatorCost;
    node->total_cost = node->startup_cost;
    node->width = cur.node->width;
    cur = b.Make(std::make_unique<DistinctOp>(std::move(cur.op), s->visible), std::move(node),
                 {&cur});
  }
  if (!s->order_by.empty() && !ordered_by_index) {
    auto node = std::make_unique<PlanNode>();
    node->label = "Sort";
    node->details.push_back("Sort Key: " + sort_keys);
    node->rows = cur.node->rows;
    node->startup_cost = cur.node->total_cost + SortCost(cur.node->rows);
    node->total_cost = node->startup_cost + cur.node->rows * kCpuOperatorCost;
    node->width = cur.node->width;
    cur = b.Make(std::make_unique<SortOp>(std::move(cur.op), s->order_by), std::move(node),
                 {&cur});
  }
  if (s->limit != nullptr || s->offset != nullptr) {
    auto node = std::make_unique<PlanNode>();
    node->label = "Limit";
    double n = cur.node->rows;
    if (s->limit != nullptr && s->limit->kind == BoundKind::kConst && s->limit->value.IsInt()) {
      n = std::min(n, static_cast<double>(std::max<int64_t>(0, s->limit->value.AsInt())));
    }
    node->rows = n;
    node->startup_cost = cur.node->startup_cost;
    node->total_cost =
        cur.node->startup_cost + (cur.node->total_cost - cur.node->startup_cost) *
                                     std::min(1.0, n / std::max(1.0, cur.node->rows));
    node->width = cur.node->width;
    cur = b.Make(std::make_unique<LimitOp>(std::move(cur.op), std::move(s->limit),
                                           std::move(s->offset)),
                 std::move(node), {&cur});
  }
  if (total > s->visible) cur.op = std::make_unique<TrimOp>(std::move(cur.op), s->visible);
  return PlannedSelect{std::move(cur.op), std::move(cur.node)};
}

Result<OperatorPtr> PlanSelect(std::unique_ptr<BoundSelect> select) {
  MERIDIAN_ASSIGN_OR_RETURN(PlannedSelect planned,
                            PlanSelectExplained(std::move(select), /*instrument=*/false));
  return std::move(planned.root);
}

}  // namespace meridian::exec
